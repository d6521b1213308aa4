/**
 * What the distillation, learning-history and conflict calls return (contract section "writing memory
 * that learns"). Counts, ids and the rules' own texts; never episode text.
 */
import type { RuleCategory } from '../../domain/semantic/hypotheses';
import type { EpisodeEvidence } from '../../domain/semantic/votes';
import type { ExistingRule } from '../../domain/semantic/distill';

/** 003 蒸馏触发条件: 50 new episodes, idle > 5 min, the panel's button, a contradiction. */
export type DistillTrigger = 'batch' | 'idle' | 'manual' | 'conflict';

export interface DistillRun {
  id: string;
  trigger: DistillTrigger;
  status: 'running' | 'done' | 'failed';
  /** The last episode (row id) its snapshot read. */
  watermark: number;
  episodes: number;
  result: Record<string, number>;
  errorCode: string | null;
  startedAt: number;
  finishedAt: number | null;
}

export interface DistillStatus {
  /** preferences.learning is off: episodes are recorded, nothing is distilled. */
  paused: boolean;
  /** Episodes recorded since the last distillation that finished. */
  newEpisodes: number;
  /** Episodes recorded since the last distillation started (done or failed): after a failure, the next trigger is a new one. */
  sinceLastRun: number;
  totalEpisodes: number;
  /** What would start a distillation now (null: nothing is due). */
  due: DistillTrigger | null;
  running: DistillRun | null;
  lastRun: DistillRun | null;
  /** The last one that finished, for the panel's "last update". */
  lastDone: DistillRun | null;
  openConflicts: number;
}

/** distill.begin: a consistent snapshot, read in one transaction while writes go on. */
export interface DistillSnapshot {
  run: DistillRun;
  episodes: EpisodeEvidence[];
  rules: ExistingRule[];
  now: number;
}

/** One rule change as distill.apply receives it (the jobs worker's plan, maybe phrased by a model). */
export interface AppliedRule {
  scope: 'global' | 'project';
  projectId: string | null;
  key: string;
  rule: string;
  category: RuleCategory;
  confidence: number;
  supporting: string[];
  contradicting: string[];
  basis: { pattern: string; pole: string }[];
  change: 'create' | 'update' | 'drift';
  /** Who phrased the text. */
  phrasedBy: 'template' | 'model';
}

export interface DistillApplyResult {
  created: string[];
  updated: string[];
  drifted: string[];
  skipped: { key: string; reason: 'deleted' | 'confirmed' | 'user-rule' | 'modified' }[];
  conflicts: string[];
}

export interface RuleChange {
  id: number;
  ruleId: string;
  projectId: string | null;
  action: 'created' | 'updated' | 'drift' | 'confirmed' | 'edited' | 'deleted' | 'promoted' | 'conflict' | 'resolved' | 'verdict' | 'added';
  actor: 'distill' | 'user' | 'system';
  before: { rule: string; confidence: number; version: number } | null;
  after: { rule: string; confidence: number; version: number } | null;
  /** The episodes behind the change (the newest 50). */
  episodes: string[];
  distillId: string | null;
  at: number;
}

export interface RuleConflict {
  id: string;
  projectId: string | null;
  ruleA: string;
  ruleB: string;
  dimension: string;
  /** Each rule's confidence before the conflict lowered it. */
  confidenceA: number;
  confidenceB: number;
  detectedAt: number;
  resolvedAt: number | null;
  keptRuleId: string | null;
}

export interface ProjectClearReport {
  projectId: string;
  episodes: number;
  rules: number;
  history: number;
  feedbackEvents: number;
  workingMemory: number;
  /** Issue 19: the project's long-term memories, runs and conversation summaries went too. */
  memories: number;
  runs: number;
  summaries: number;
  /** The project's story graph (kg_facts, kg_entities). */
  graphFacts: number;
  graphEntities: number;
}
