/** What the lifecycle calls return (contract section "memory that forgets on purpose", issue 19). */
import type { SlowTransaction } from '../store/io-counters';
import type { SliceTiming } from '../store/slices';

export type LifecyclePhase = 'decay' | 'compress' | 'purge';
export const LIFECYCLE_PHASES: readonly LifecyclePhase[] = ['decay', 'compress', 'purge'];

export type LedgerAction = 'faded' | 'compressed' | 'deleted';
export type LedgerReason = 'decay' | 'ttl' | 'budget' | 'lru';

/** One line of the forgetting ledger: what faded, was compressed or deleted by policy, when and why. */
export interface LedgerEntry {
  id: number;
  itemType: 'episode' | 'rule';
  itemId: string;
  projectId: string | null;
  action: LedgerAction;
  reason: LedgerReason;
  /** The decay score when it happened (null: a budget or TTL decision). */
  decay: number | null;
  /** A short text: the episode's scene and skill (never its full text) or the rule's words. */
  text: string;
  createdAt: number;
  /** The user pinned the item back ("keep this"). */
  keptAt: number | null;
  /** Whether the item still exists (a deleted one cannot be kept). */
  exists: boolean;
}

export interface PhaseState {
  lastOkAt: number | null;
  failedAt: number | null;
  /** The last failure's message (MEMORY_CLEANUP_FAILED), while it has not succeeded since. */
  error: string | null;
}

export interface LifecycleStatus {
  phases: Record<LifecyclePhase, PhaseState>;
  /** Phases whose window has come (or whose last run failed: retried in the next window). */
  due: LifecyclePhase[];
  running: boolean;
  counts: { episodes: number; compressed: number; fading: number; pinned: number; ledger: number };
}

export interface PhaseReport {
  phase: LifecyclePhase;
  /** Items looked at, and what changed. */
  scanned: number;
  faded: number;
  compressed: number;
  deleted: number;
  slices: number;
  /** How long the longest and the median slice's transaction ran (ms): what a foreground call can wait behind. */
  longestSliceMs: number;
  medianSliceMs: number;
  /** The few slowest slices, each split into BEGIN / steps / COMMIT (store/slices.ts): what a long one is made of. */
  slowSlices: SliceTiming[];
  ms: number;
}

export type LifecycleRunResult =
  | { state: 'skipped'; reason: 'running' }
  | {
      state: 'done';
      phases: PhaseReport[];
      bytesBefore: number;
      bytesAfter: number;
      vacuumed: boolean;
      /**
       * WAL checkpoints the run made between its slices (store/checkpoint-slices.ts: one each ~64 pages written; 0
       * where pages are not counted — Node — and SQLite's autocheckpoint does it inside a COMMIT).
       */
      checkpoints: number;
      /** The most frames the WAL held since the database was opened, up to the run's end (OPFS only: io-counters.ts's walFramesMost). */
      walFramesMost?: number;
      /** Every write transaction of 20 ms or more while it ran (its own slices' and the foreground's), with its file I/O (OPFS only). */
      slowTransactions?: SlowTransaction[];
    };

export type { SummaryCandidate } from './model-summaries';
