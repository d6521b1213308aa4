/**
 * The context engine's limits in one place. Constants, not settings: they bound work and storage, and
 * tests override them through `EngineEnv.context` (e.g. a 0 ms learning budget to provoke TIMEOUT).
 */
export interface ContextTuning {
  /** Deadline of each source load (profile, rules, files, memories, …); a slower one becomes a marker. */
  sourceTimeoutMs: number;
  /** Time preference learning may take inside feedback.record before the call returns TIMEOUT. */
  learningBudgetMs: number;
  /** Runs still pending after this long are closed as `timeout` by run.sweep. */
  pendingTtlMs: number;
  /** Only this many most recent runs keep their full prompt text (the inspector says so). */
  runMessagesKept: number;
  /** 004 full → compact: a session's rolling summaries not yet compacted, by count and by tokens. */
  compactMaxEntries: number;
  compactMaxTokens: number;
  /** Rolling summaries left out of a compaction (the newest stay as they are). */
  compactKeepRecent: number;
  /** 004 full → compact for a project's skill runs: finished runs not yet compacted, and how many stay out. */
  runCompactMaxEntries: number;
  runCompactKeepRecent: number;
  /** Recall hits from other conversations go into L4 only from this relevance on (002 score, 0..1). */
  recallMinRelevance: number;
  recallLimit: number;
}

export const DEFAULT_CONTEXT_TUNING: ContextTuning = {
  sourceTimeoutMs: 2_000,
  learningBudgetMs: 250,
  pendingTtlMs: 10 * 60_000,
  runMessagesKept: 30,
  compactMaxEntries: 6,
  compactMaxTokens: 1_500,
  compactKeepRecent: 2,
  runCompactMaxEntries: 20,
  runCompactKeepRecent: 5,
  recallMinRelevance: 0.35,
  recallLimit: 3,
};

export function contextTuning(overrides: Partial<ContextTuning> | undefined): ContextTuning {
  return { ...DEFAULT_CONTEXT_TUNING, ...overrides };
}
