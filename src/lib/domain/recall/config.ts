/**
 * The one config object of the product's retrieval (turn recall, seed 002, and memory retrieval, seed 001):
 * which techniques run and their constants. The app uses DEFAULT_RETRIEVAL_CONFIG; tests and the ablation
 * benchmark pass overrides through `EngineEnv.retrieval` — the same object, never a per-dataset switch.
 * Why each technique exists and what it adds: docs/design/06-retrieval.md.
 */
export interface RetrievalConfig {
  // ── turn recall (recall.search) ────────────────────────────────────────────────
  /** A reply borrows part of its neighbours' match (the question it answers holds the words). */
  neighbours: boolean;
  /** Time expressions ("last Saturday", "去年圣诞节") resolved against the clock: the recency term becomes temporal fit. */
  timeAware: boolean;
  /** Who said it: first person → the user's turns; a named participant → the turns that person wrote. */
  speakerCue: boolean;
  /** Terms in a large share of all turns are dropped while rarer ones remain (speed and precision). */
  termPruning: boolean;
  /** The best candidates are re-ranked by how much of the question they cover and whether they hold what it asks for. */
  rerank: boolean;

  // ── memory retrieval (memory.retrieve) ─────────────────────────────────────────
  /** Chinese also matched by overlapping character pairs (a `grams` index column), not only by words. */
  memoryGrams: boolean;
  /** The conversation's earlier user turns join the query, weighted by recency. */
  memoryDialogue: boolean;
  /** A memory's scene/emotion tags count when they agree with the conversation's mood. */
  memoryEmotion: boolean;

  // ── constants ─────────────────────────────────────────────────────────────────
  /** Full-text candidates ranked by bm25 before fusion. */
  candidates: number;
  /** Share of a neighbour's lexical score a turn borrows … */
  neighbourWeight: number;
  /** … and the share a reply borrows from the question right before it. */
  answerWeight: number;
  /** Re-ranking: context × (1 − coverageWeight + coverageWeight × coverage) … */
  coverageWeight: number;
  /** … × (1 − answerTypeWeight) when the question asks for a time/number/place/person/duration the turn lacks. */
  answerTypeWeight: number;
  /** Multiplier of a cued speaker's turns. */
  speakerBoost: number;
  /** A term in more than this share of all turns is dropped when rarer terms remain. */
  pruneShare: number;
  /** Upper bound of matching rows ranked by bm25; beyond it only the newest are ranked (latency at scale). */
  rankBudget: number;
}

export const DEFAULT_RETRIEVAL_CONFIG: Readonly<RetrievalConfig> = Object.freeze({
  neighbours: true,
  timeAware: true,
  speakerCue: true,
  termPruning: true,
  rerank: true,
  memoryGrams: true,
  memoryDialogue: true,
  memoryEmotion: true,
  candidates: 100,
  neighbourWeight: 0.5,
  answerWeight: 1,
  coverageWeight: 0.5,
  answerTypeWeight: 0.2,
  speakerBoost: 2,
  pruneShare: 0.1,
  rankBudget: 1000,
});

/** The switchable techniques, in the order the ablation reports them. */
export const RETRIEVAL_TECHNIQUES = [
  'neighbours',
  'timeAware',
  'speakerCue',
  'termPruning',
  'rerank',
  'memoryGrams',
  'memoryDialogue',
  'memoryEmotion',
] as const satisfies readonly (keyof RetrievalConfig)[];

export type RetrievalTechnique = (typeof RETRIEVAL_TECHNIQUES)[number];

/** Which path each technique acts on: turn recall (recall.search) or memory retrieval (memory.retrieve). */
export const RECALL_TECHNIQUES = ['neighbours', 'timeAware', 'speakerCue', 'termPruning', 'rerank'] as const satisfies readonly RetrievalTechnique[];
export const MEMORY_TECHNIQUES = ['memoryGrams', 'memoryDialogue', 'memoryEmotion'] as const satisfies readonly RetrievalTechnique[];

/** Every technique of a path switched off: the seed formulas over plain full-text candidates. */
export function withoutTechniques(techniques: readonly RetrievalTechnique[]): Partial<RetrievalConfig> {
  return Object.fromEntries(techniques.map((t) => [t, false]));
}

export function retrievalConfig(overrides?: Partial<RetrievalConfig>): RetrievalConfig {
  return { ...DEFAULT_RETRIEVAL_CONFIG, ...overrides };
}
