/**
 * What the context engine's calls return (contract section "context engine, skills, feedback, project
 * files"). Records only: ids, numbers and the user's own texts where the call is about them.
 */
import type { Contradiction, ContextMessage, ContextRules, Entity, Fact, LayerId, LayerResult } from '../../domain/context';
import type { ImplicitSignal } from '../../domain/episodes/signals';

export type { ContextRules, Contradiction, Entity, Fact };

export type RunKind = 'chat' | 'skill';
export type RunStatus = 'pending' | 'completed' | 'canceled' | 'failed' | 'timeout';

export interface ContextBuildResult {
  runId: string;
  stablePrefixHash: string;
  messages: ContextMessage[];
  layers: LayerResult[];
  /** Ids of the long-term memories kept in L4 (only these were marked accessed). */
  memoryIds: string[];
  totalTokens: number;
  memoryDegraded: boolean;
}

/** A run as the inspector lists it (no prompt text). */
export interface RunSummary {
  id: string;
  kind: RunKind;
  skillId: string;
  sessionId: string | null;
  messageId: number | null;
  projectId: string | null;
  documentId: string | null;
  stablePrefixHash: string;
  status: RunStatus;
  createdAt: number;
  finishedAt: number | null;
  totalTokens: number;
  memoryDegraded: boolean;
  /** Issue 15, in run lists: the request as the user wrote it (its start), or null for runs stored before. */
  request?: string | null;
  /** Issue 15, in run lists: the conversation's or the chapter's title. */
  where?: string | null;
}

export interface RunRecord extends RunSummary {
  layers: LayerResult[];
  /** Every long-term memory the run put before the model: L4's, then those search_memories found. */
  memoryIds: string[];
  /** The full prompt, or null once pruned (only the most recent RUN_MESSAGES_KEPT runs keep it). */
  messages: ContextMessage[] | null;
  messagesPruned: boolean;
}

/** A run as run.get shows it. */
export interface RunDetail extends RunRecord {
  /** The part of `memoryIds` the model found with search_memories (000 主动记忆搜索), not L4. */
  toolMemoryIds: string[];
}

/** 003 GenerationTrace: which memories a generation rested on and how much (share of their tokens). */
export interface TraceReference {
  type: 'semantic' | 'memory' | 'summary' | 'working' | 'file' | 'profile' | 'episode';
  /** The item's citation id, e.g. `preference:r-1`, `memory:m-3`, `file:.engram/style/guide.md`. */
  id: string;
  layer: LayerId;
  /** 0..1; the weights of one trace sum to 1 (rounded to 3 decimals). */
  weight: number;
  /** The item was deleted, forgotten or cleared since the run (run.trace; context/trace-gone.ts). */
  gone?: true;
}

export interface GenerationTrace {
  generationId: string;
  memoryReferences: TraceReference[];
  verdict: 'correct' | 'incorrect' | null;
  verdictAt: number | null;
}

export type RuleCategory = 'style' | 'structure' | 'character' | 'pacing' | 'vocabulary';

/** 003 semantic memory entry. */
export interface SemanticRule {
  id: string;
  rule: string;
  category: RuleCategory;
  scope: 'global' | 'project';
  projectId: string | null;
  key: string | null;
  confidence: number;
  supporting: string[];
  contradicting: string[];
  userConfirmed: boolean;
  userModified: boolean;
  source: 'user' | 'learned';
  version: number;
  status: 'active' | 'deleted';
  createdAt: number;
  updatedAt: number;
  /** What a learned rule rests on: the patterns and poles distillation found (issue 17). */
  basis: { pattern: string; pole: string }[];
  /** Confidence taken off by "判断有误" verdicts; distillation subtracts it again every time. */
  penalty: number;
  /** When a time drift (003 时间迁移) last changed the rule: the panel says "recently updated". */
  driftedAt: number | null;
  /** The open direct contradiction it is in (003 直接矛盾), waiting for the user's choice. */
  conflictId: string | null;
}

export type SampleRef = { documentId: string; from: number; to: number } | { messageId: number };

export interface FeedbackEvent {
  id: string;
  runId: string;
  skillId: string;
  projectId: string | null;
  action: 'accept' | 'reject' | 'partial';
  sampleRefs: SampleRef[];
  editDistance: number | null;
  /** The 003 implicit signal of this event (an undo is `delayed-negative`); null on events from before issue 17. */
  signal: ImplicitSignal | null;
  createdAt: number;
}

/**
 * feedback.record only records (issue 17): the event, and for a skill run its episode. Learning runs
 * later, in the jobs worker's distillation; `distillDue` says when one is due now.
 */
export interface FeedbackResult {
  event: FeedbackEvent;
  /** The run's episode (skill runs), created or updated with this outcome. */
  episodeId: string | null;
  distillDue: 'batch' | 'conflict' | null;
}

export interface Project {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectFileEntry {
  /** Project-relative, e.g. `.engram/characters/alice.md`. */
  path: string;
  size: number;
  updatedAt: number;
}

export interface ProjectFile extends ProjectFileEntry {
  content: string;
}

export interface Document {
  id: string;
  projectId: string;
  title: string;
  content: string;
  createdAt: number;
  updatedAt: number;
}

export type DocumentSummary = Omit<Document, 'content'> & { chars: number };

export interface SkillInfo {
  id: string;
  /** i18n keys the UI resolves (`skills.<id>.name`, `skills.<id>.description`). */
  nameKey: string;
  descriptionKey: string;
  contextRules: ContextRules;
  /** Whether the skill works on a selection (the Write page offers it only then). */
  needsSelection: boolean;
}

/** graph.check: what the consistency check found about the named entities (05 doc). */
export interface GraphCheckResult {
  entities: Entity[];
  /** Facts about them in story order (only those valid at `at`, when given). */
  facts: Fact[];
  /** Functional predicates holding two values over overlapping story time, with both facts' evidence. */
  contradictions: Contradiction[];
}
