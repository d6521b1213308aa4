/**
 * The lifecycle service (issue 19): runs the decay, compression and purge phases in short transactions, one
 * pass at a time (a second caller is told `skipped: running`), records when each phase last succeeded or
 * failed, and turns any failure (a locked database, a thrown error) into MEMORY_CLEANUP_FAILED — shown in
 * Settings from lifecycle.status, and retried in the next window (a failed phase is due again).
 */
import { EngineError } from '../../domain/errors';
import * as B from '../../domain/lifecycle/budgets';
import type { EngineEnv } from '../env';
import { checkpointBetweenSlices, type CheckpointingDriver } from '../store/checkpoint-slices';
import { ownPageWritesNow, slowTransactionsSince, walFramesMost } from '../store/io-counters';
import { runInSlices, slowestSlices } from '../store/slices';

/** Slowest slices a phase report keeps, split into BEGIN / steps / COMMIT. */
const SLOW_SLICES_KEPT = 5;

/**
 * A clean-up's transactions are shorter than other background work's (store/slices.ts's 20 ms): it runs beside
 * writing, and a slice's COMMIT on OPFS and its slowest step come on top of the budget. `npm run bench:speed --
 * --lifecycle` on a quiet machine (longest / p95 wait a person feels while it runs): 20 ms → 66.4 / 47.5 ms,
 * 10 ms → 48.1 and 61.1 / 31 ms, 5 ms → 49.4 and 63.5 / 23 ms. The p95 follows the budget; the longest wait does
 * not (single slices of 30–50 ms whatever the budget), and the whole clean-up takes about twice as long at 5 ms.
 */
export const LIFECYCLE_SLICE_MS = 5;
/**
 * Pages a clean-up slice may append to the WAL (store/slices.ts's pageBudget): 256 KiB of 8 KiB pages. The lifecycle
 * benchmark's slowest COMMITs without a budget were purge and compress slices writing 300–430 pages (53–81 ms of
 * writes). Once the budget counted only the WAL's pages (not a checkpoint's copies), 64 made slices about twice as
 * large as before and the waits beside them longer; 32 gave the lowest p95 wait (docs/decisions.md, issue 19).
 */
export const LIFECYCLE_PAGE_BUDGET = 32;
import { createLedger } from './ledger';
import { compressWith, summaryCandidates } from './model-summaries';
import { compressPass, decayPass, purgePass, type Pass, type PassDeps } from './passes';
import { LIFECYCLE_PHASES, type LifecyclePhase, type LifecycleRunResult, type LifecycleStatus, type PhaseReport, type PhaseState } from './types';

const EVERY: Record<LifecyclePhase, number> = { decay: B.DECAY_EVERY_MS, compress: B.COMPRESS_EVERY_MS, purge: B.PURGE_EVERY_MS };
const PASS: Record<LifecyclePhase, (d: PassDeps) => Pass> = { decay: decayPass, compress: compressPass, purge: purgePass };

/**
 * `pagesWritten`: the WAL pages written so far, read by the slices' page budget and by the checkpoints between
 * them (default: the OPFS counters, store/io-counters.ts; null where not counted — Node — and then SQLite's own
 * autocheckpoint runs as before).
 */
export function createLifecycleService(env: Pick<EngineEnv, 'driver' | 'clock' | 'log'>, options: { pagesWritten?: () => number | null } = {}) {
  const { driver, clock, log } = env;
  const pagesWritten = options.pagesWritten ?? ownPageWritesNow;
  const ledger = createLedger(driver, clock);
  let running = false;
  /** The last failure, also when the database could not even record it. */
  const failures = new Map<LifecyclePhase, { at: number; error: string }>();

  function phaseStates(): Record<LifecyclePhase, PhaseState> {
    const rows = new Map(driver.all<{ phase: LifecyclePhase; last_ok_at: number | null; failed_at: number | null; error: string | null }>('SELECT * FROM lifecycle_state').map((r) => [r.phase, r]));
    const out = {} as Record<LifecyclePhase, PhaseState>;
    for (const p of LIFECYCLE_PHASES) {
      const r = rows.get(p);
      const mem = failures.get(p);
      const failedAt = Math.max(r?.failed_at ?? 0, mem?.at ?? 0) || null;
      const lastOkAt = r?.last_ok_at ?? null;
      const failing = failedAt !== null && (lastOkAt === null || failedAt > lastOkAt);
      out[p] = { lastOkAt, failedAt, error: failing ? ((mem && mem.at === failedAt ? mem.error : r?.error) ?? null) : null };
    }
    return out;
  }

  function bytes(): number {
    const n = (sql: string) => driver.get<{ n: number }>(sql)?.n ?? 0;
    return n('SELECT page_count AS n FROM pragma_page_count()') * n('SELECT page_size AS n FROM pragma_page_size()');
  }

  async function runPhase(phase: LifecyclePhase, checkpointing: CheckpointingDriver, signal?: AbortSignal): Promise<PhaseReport> {
    const t0 = performance.now();
    const pass = PASS[phase]({ driver, clock, ledger });
    const sliceMs: number[] = [];
    const slow = slowestSlices(SLOW_SLICES_KEPT);
    const slices = await runInSlices({
      // The WAL checkpointed between slices, not inside one's COMMIT (store/checkpoint-slices.ts; issue 19: 8 of the
      // clean-up's 10 slowest slices had the 200-frame autocheckpoint in their COMMIT).
      driver: checkpointing.driver,
      step: pass.step,
      budgetMs: LIFECYCLE_SLICE_MS,
      pageBudget: LIFECYCLE_PAGE_BUDGET,
      pagesWritten,
      // A pass works from what is stored (passes.ts): a slice lost to a power cut is done again by the next pass,
      // due again as its last_ok_at (written below, at FULL) is not.
      resumable: true,
      onSlice: (ms, timing) => (sliceMs.push(ms), slow.note(timing)),
      ...(signal ? { signal } : {}),
    });
    driver.transaction(() =>
      driver.run('INSERT INTO lifecycle_state (phase, last_ok_at) VALUES (?, ?) ON CONFLICT (phase) DO UPDATE SET last_ok_at = excluded.last_ok_at', [phase, clock.now()]),
    );
    failures.delete(phase);
    sliceMs.sort((a, b) => a - b);
    const tenth = (ms: number) => Math.round(ms * 10) / 10;
    return {
      phase,
      ...pass.report,
      slices,
      longestSliceMs: tenth(sliceMs.at(-1) ?? 0),
      medianSliceMs: tenth(sliceMs[Math.floor((sliceMs.length - 1) / 2)] ?? 0),
      slowSlices: slow.list(),
      ms: Math.round(performance.now() - t0),
    };
  }

  function recordFailure(phase: LifecyclePhase, message: string): void {
    const at = clock.now();
    failures.set(phase, { at, error: message });
    try {
      driver.transaction(() =>
        driver.run('INSERT INTO lifecycle_state (phase, failed_at, error) VALUES (?, ?, ?) ON CONFLICT (phase) DO UPDATE SET failed_at = excluded.failed_at, error = excluded.error', [phase, at, message]),
      );
    } catch {
      // The database is what failed: the failure stays in memory (status shows it) until the retry.
    }
  }

  return {
    ledger,
    /** Episodes due for compression and what a model may read of them (model-summaries.ts). */
    summaryCandidates: (opts: { limit: number; after: number }) => summaryCandidates(driver, clock, opts),
    /** The model's summaries, each written only if its episode is unchanged and still due. */
    compressWith: (items: readonly { id: string; seen: string; summary: string }[]) => compressWith(driver, clock, ledger, items),
    status(): LifecycleStatus {
      const phases = phaseStates();
      const now = clock.now();
      const due = LIFECYCLE_PHASES.filter((p) => {
        const s = phases[p];
        return s.error !== null || s.lastOkAt === null || now - s.lastOkAt >= EVERY[p];
      });
      const n = (sql: string) => driver.get<{ n: number }>(sql)?.n ?? 0;
      return {
        phases,
        due,
        running,
        counts: {
          episodes: n('SELECT COUNT(*) AS n FROM episodes'),
          compressed: n('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1'),
          fading: n('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 0 AND decay < 0.3'),
          pinned: n('SELECT (SELECT COUNT(*) FROM episodes WHERE pinned = 1) + (SELECT COUNT(*) FROM semantic_rules WHERE pinned = 1 AND status = \'active\') AS n'),
          ledger: n('SELECT COUNT(*) AS n FROM forgetting_ledger'),
        },
      };
    },
    /**
     * One pass over the phases asked for, in order. `vacuum` (the manual "clean now"): VACUUM afterwards, so
     * the bytes compression and purging freed go back to the file system (it rewrites the file: not in the
     * scheduled runs, where it would stall the page).
     */
    async run(opts: { phases: readonly LifecyclePhase[]; vacuum: boolean; signal?: AbortSignal }): Promise<LifecycleRunResult> {
      if (running) return { state: 'skipped', reason: 'running' };
      running = true;
      const reports: PhaseReport[] = [];
      let current: LifecyclePhase = opts.phases[0] ?? 'decay';
      const startedAt = (typeof performance === 'undefined' ? 0 : performance.timeOrigin) + performance.now();
      try {
        const bytesBefore = bytes();
        // One wrapper for the whole run: the pages of one phase's last slices count towards the next checkpoint.
        const checkpointing = checkpointBetweenSlices(driver, { pagesWritten });
        for (const phase of LIFECYCLE_PHASES.filter((p) => opts.phases.includes(p))) {
          current = phase;
          reports.push(await runPhase(phase, checkpointing, opts.signal));
        }
        let vacuumed = false;
        if (opts.vacuum) {
          // A database made before incremental auto-vacuum switches here (VACUUM rewrites it anyway), so the
          // scheduled passes can give pages back in bounded steps from then on (vacuum.ts).
          driver.exec('PRAGMA auto_vacuum = INCREMENTAL');
          driver.exec('VACUUM');
          vacuumed = true;
        }
        const slowTransactions = slowTransactionsSince(startedAt);
        const walMost = walFramesMost();
        return {
          state: 'done',
          phases: reports,
          bytesBefore,
          bytesAfter: bytes(),
          vacuumed,
          checkpoints: checkpointing.checkpoints().length,
          ...(walMost === null ? {} : { walFramesMost: walMost }),
          ...(slowTransactions.length ? { slowTransactions } : {}),
        };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        recordFailure(current, message);
        // Never the memory's text: the phase and what SQLite said.
        log.warn('lifecycle.failed', { phase: current });
        throw new EngineError('MEMORY_CLEANUP_FAILED', `The memory clean-up (${current}) failed and will be retried in the next window: ${message}`, { phase: current });
      } finally {
        running = false;
      }
    },
  };
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
