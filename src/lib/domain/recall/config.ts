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
  /** A turn also borrows from the turns two places away from it (a topic runs over several turns). */
  contextWindow: boolean;
  /** A turn inherits a share of its conversation's best match (the conversation is about the question). */
  sessionContext: boolean;
  /** Words of the request frame ("any tips", "I was thinking of", "recommend") count at a reduced weight. */
  frameWords: boolean;
  /** The question's words stated by a first-person sentence that is not a question count extra (second stage). */
  statements: boolean;
  /** An irregular English verb is searched in all its forms (feel, felt; write, wrote, written). */
  verbForms: boolean;
  /** A question that counts, totals, compares or chooses gets hits from several conversations (spread.ts). */
  conversationSpread: boolean;
  /** Coverage compares words by porter's plural and -ing/-ed steps in order, as the index does (cuttings = cutting, running = run). */
  stemSteps: boolean;
  /** A category the question gathers over ("board games", "what kind of art") is also searched by its kinds from WordNet (chess, backgammon). */
  hyponyms: boolean;
  /** A question that counts or gathers: each conversation's earliest turn stating the question's words (it introduces the fact) counts more. */
  firstMention: boolean;

  // ── memory retrieval (memory.retrieve) ─────────────────────────────────────────
  /** Chinese also matched by overlapping character pairs (a `grams` index column), not only by words. */
  memoryGrams: boolean;
  /** The conversation's earlier user turns join the query, weighted by recency. */
  memoryDialogue: boolean;
  /** A memory's scene/emotion tags count when they agree with the conversation's mood. */
  memoryEmotion: boolean;
  /** 001's ×1.3 topic boost only through topic words that single out a few memories, not words most of them hold. */
  memoryTopicFocus: boolean;
  /** The topic's words join the message's search only when they single out a few of the memories found (as the boost). */
  memoryTopicSearch: boolean;
  /** The chat's first user message joins the dialogue views at the weight of the latest earlier turn (it names the subject). */
  memoryOpener: boolean;
  /** Each lexical view's weight × √(its best bm25 ÷ the strongest view's): a turn sharing one word with one memory no longer hands it a full share. */
  memoryViewStrength: boolean;
  /** The chat's first user message's words join the current topic's for 001's ×1.3 boost (through the same focus test): the opener names the chat's subject. */
  memoryOpenerTopic: boolean;

  // ── constants ─────────────────────────────────────────────────────────────────
  /** Full-text candidates ranked by bm25 before fusion. */
  candidates: number;
  /** Share of a neighbour's lexical score a turn borrows … */
  neighbourWeight: number;
  /** … and the share a reply borrows from the question right before it. */
  answerWeight: number;
  /** Share of the better of the turns two places away that a turn borrows (contextWindow) … */
  farWeight: number;
  /** … for the turns around this many best text candidates (latency: each costs up to four more rows read). */
  farAround: number;
  /** Share of its conversation's best lexical match a candidate inherits (sessionContext). */
  sessionWeight: number;
  /** bm25 and coverage weight of a request-frame word relative to a topic word (frameWords). */
  frameWeight: number;
  /** bm25 weight of a category's kinds relative to the question's own words (hyponyms). */
  hyponymWeight: number;
  /** firstMention: × (1 + firstMentionWeight) on a conversation's earliest head turn that states the question's words. */
  firstMentionWeight: number;
  /** × (1 + statementWeight × share of the question's words the turn's first-person statements hold). */
  statementWeight: number;
  /** conversationSpread: a conversation's first spreadFree hits count fully, each later one × spreadFactor more. */
  spreadFree: number;
  spreadFactor: number;
  /** Re-ranking: context × (1 − coverageWeight + coverageWeight × coverage) … */
  coverageWeight: number;
  /** … × (1 − answerTypeWeight) when the question asks for a time/number/place/person/duration the turn lacks. */
  answerTypeWeight: number;
  /** Multiplier of the turns of a participant the question names … */
  speakerBoost: number;
  /** … and of the role its pronouns point at ("I/my" → the user's turns, "you said" → the assistant's). */
  roleBoost: number;
  /** "currently/latest" questions: the recency term ranges over [recentFloor, 1], a tie-breaker, not a filter. */
  recentFloor: number;
  /** A term in more than this share of all turns is dropped when rarer terms remain. */
  pruneShare: number;
  /** Upper bound of matching rows ranked by bm25; beyond it only the newest are ranked (latency at scale). */
  rankBudget: number;
  /** A topic word boosts (memoryTopicFocus) and is searched (memoryTopicSearch) only when at most this share of the candidate memories holds it. */
  topicShare: number;
}

export const DEFAULT_RETRIEVAL_CONFIG: Readonly<RetrievalConfig> = Object.freeze({
  neighbours: true,
  timeAware: true,
  speakerCue: true,
  termPruning: true,
  rerank: true,
  contextWindow: true,
  sessionContext: true,
  frameWords: true,
  statements: true,
  verbForms: true,
  conversationSpread: true,
  stemSteps: true,
  hyponyms: true,
  firstMention: true,
  memoryGrams: true,
  memoryDialogue: true,
  memoryEmotion: true,
  memoryTopicFocus: true,
  memoryTopicSearch: true,
  memoryOpener: true,
  memoryViewStrength: true,
  memoryOpenerTopic: true,
  candidates: 100,
  neighbourWeight: 0.5,
  answerWeight: 1,
  farWeight: 0.5,
  farAround: 10,
  sessionWeight: 0.1,
  frameWeight: 0.5,
  statementWeight: 0.5,
  hyponymWeight: 0.35,
  firstMentionWeight: 0.5,
  spreadFree: 2,
  spreadFactor: 0.5,
  coverageWeight: 0.5,
  answerTypeWeight: 0.2,
  speakerBoost: 2,
  roleBoost: 4,
  recentFloor: 0.9,
  pruneShare: 0.1,
  rankBudget: 1000,
  topicShare: 0.1,
});

/** The switchable techniques of each path, in the order the ablation reports them: turn recall (recall.search) … */
export const RECALL_TECHNIQUES = [
  'neighbours',
  'timeAware',
  'speakerCue',
  'termPruning',
  'rerank',
  'contextWindow',
  'sessionContext',
  'frameWords',
  'statements',
  'verbForms',
  'conversationSpread',
  'stemSteps',
  'hyponyms',
  'firstMention',
] as const satisfies readonly (keyof RetrievalConfig)[];
/** … and memory retrieval (memory.retrieve). */
export const MEMORY_TECHNIQUES = ['memoryGrams', 'memoryDialogue', 'memoryEmotion', 'memoryTopicFocus', 'memoryTopicSearch', 'memoryOpener', 'memoryViewStrength', 'memoryOpenerTopic'] as const satisfies readonly (keyof RetrievalConfig)[];

export const RETRIEVAL_TECHNIQUES = [...RECALL_TECHNIQUES, ...MEMORY_TECHNIQUES] as const;

export type RetrievalTechnique = (typeof RETRIEVAL_TECHNIQUES)[number];

/** Every technique of a path switched off: the seed formulas over plain full-text candidates. */
export function withoutTechniques(techniques: readonly RetrievalTechnique[]): Partial<RetrievalConfig> {
  return Object.fromEntries(techniques.map((t) => [t, false]));
}

export function retrievalConfig(overrides?: Partial<RetrievalConfig>): RetrievalConfig {
  return { ...DEFAULT_RETRIEVAL_CONFIG, ...overrides };
}
