/**
 * The one config object of the product's retrieval (turn recall, seed 002; memory retrieval, seed 001; the
 * conversation ranking and the meaning-based lane, issue 18): which stages run and every number they use. Nothing
 * in recall-service, term-selection, turn-index, retrieval-service or keyword-fusion is a loose constant: each reads
 * its numbers from here. The app uses DEFAULT_RETRIEVAL_CONFIG; tests and the ablation benchmark pass overrides
 * through `EngineEnv.retrieval` — the same object, never a per-dataset switch.
 * Why each technique exists and what it adds: docs/design/06-retrieval.md.
 */
export interface RetrievalConfig {
  // ── turn recall stages (recall.search); each switch off = that stage skipped ──────────────────────────────────
  /** A reply borrows part of its neighbours' match (the question it answers holds the words). */
  neighbours: boolean;
  /** Time expressions ("last Saturday", "去年圣诞节") resolved against the clock: the recency term becomes temporal fit. */
  timeAware: boolean;
  /** Who said it: first person → the user's turns; a named participant → the turns that person wrote. */
  speakerCue: boolean;
  /** The best candidates are re-ranked by how much of the question they cover and whether they hold what it asks for. */
  rerank: boolean;
  /** A turn also borrows from the turns two places away from it (a topic runs over several turns). */
  contextWindow: boolean;
  /** A turn inherits a share of its conversation's best match (the conversation is about the question). */
  sessionContext: boolean;
  /** The question's words stated by a first-person sentence that is not a question count extra (second stage). */
  statements: boolean;
  /** An irregular English verb is searched in all its forms (feel, felt; write, wrote, written). */
  verbForms: boolean;
  /** "Which conversation was it": conversations ranked as documents of their own (summaries + user turns), fused with the turn ranking (session-rank.ts). */
  sessionRanking: boolean;

  // ── memory retrieval stages (memory.retrieve) ───────────────────────────────────────────────────────────────
  /** Chinese also matched by overlapping character pairs (a `grams` index column), not only by words. */
  memoryGrams: boolean;
  /** The conversation's earlier user turns join the query, weighted by recency. */
  memoryDialogue: boolean;
  /** 001's ×1.3 topic boost only through topic words that single out a few memories, not words most of them hold. */
  memoryTopicFocus: boolean;
  /** The chat's first user message joins the dialogue views at the weight of the latest earlier turn (it names the subject). */
  memoryOpener: boolean;
  /** Each lexical view's weight × (its best bm25 ÷ the strongest view's)^strengthPower: a turn sharing one word with one memory no longer hands it a full share. */
  memoryViewStrength: boolean;
  /** The chat's first user message's words join the current topic's for 001's ×1.3 boost (through the same focus test). */
  memoryOpenerTopic: boolean;

  // ── meaning-based lane (issue 18): 0 = lexical only ──────────────────────────────────────────────────────────
  /** Weight of the embedding ranking in the reciprocal-rank fusion with the lexical ranking (the lexical one counts 1). */
  semanticWeight: number;
  /** k of reciprocal-rank fusion, 1 / (k + rank): how flat the fusion is over ranks. */
  fusionK: number;
  /** Nearest turns (or memories) the embedding lane contributes as candidates. */
  semanticCandidates: number;
  /** Below this cosine similarity a vector neighbour is not a candidate (unrelated texts still share some direction). */
  semanticFloor: number;
  /** The question's embedding is waited for at most this long (then recall is lexical, degraded) … */
  semanticTimeoutMs: number;
  /** … and after a failure the endpoint is not asked again for this long (a dead server must not slow every question). */
  semanticRetryMs: number;

  // ── constants: turn recall ────────────────────────────────────────────────────────────────────────────────────
  /** Full-text candidates ranked by bm25 before fusion. */
  candidates: number;
  /** Share of a neighbour's lexical score a turn borrows … */
  neighbourWeight: number;
  /** … and the share a reply borrows from the question right before it. */
  answerWeight: number;
  /** A turn of at most this many characters with a question mark is a question its reply answers. */
  questionChars: number;
  /** The best text candidates whose neighbours are read (a reply to a weak match cannot reach the list anyway). */
  neighboured: number;
  /** Share of the better of the turns two places away that a turn borrows (contextWindow) … */
  farWeight: number;
  /** … for the turns around this many best text candidates (latency: each costs up to four more rows read). */
  farAround: number;
  /** Share of its conversation's best lexical match a candidate inherits (sessionContext). */
  sessionWeight: number;
  /** × (1 + statementWeight × share of the question's words the turn's first-person statements hold). */
  statementWeight: number;
  /** Re-ranking: context × (1 − coverageWeight + coverageWeight × coverage) … */
  coverageWeight: number;
  /** … × (1 − answerTypeWeight) when the question asks for a time/number/place/person/duration the turn lacks. */
  answerTypeWeight: number;
  /** The head re-ranked and explained for a list of `limit`: limit × headFactor + headExtra. */
  headFactor: number;
  headExtra: number;
  /** Multiplier of the turns of a participant the question names … */
  speakerBoost: number;
  /** … and of the role its pronouns point at ("I/my" → the user's turns, "you said" → the assistant's). */
  roleBoost: number;
  /** Names of the question resolved to a participant (the first ones), and the newest turns read to resolve each. */
  maxNames: number;
  nameMentions: number;
  /** "currently/latest" questions: the recency term ranges over [recentFloor, 1], a tie-breaker, not a filter. */
  recentFloor: number;
  /** Turns a named time range adds as candidates (newest first). */
  timeLane: number;
  /** Upper bound of matching rows ranked by bm25; beyond it only the newest are ranked (latency at scale). */
  rankBudget: number;
  /** Keywords probed for their number of matches (a longer question keeps its first ones) … */
  probedTerms: number;
  /** … each counting at most this many of its newest matches (beyond: estimated from how far back they reach). */
  probeCap: number;
  /** Symbol-index hits kept, from the newest `symbolWindow` turns naming a query symbol. */
  symbolHits: number;
  symbolWindow: number;
  /** Conversations ranked as documents for the session ranking, and the k of its fusion with the turn ranking. */
  sessionCandidates: number;
  sessionFusionK: number;
  /** Weights of the conversation's document rank and of its best turn's rank in that fusion. */
  sessionDocumentWeight: number;
  sessionTurnWeight: number;
  /** A turn's score × (1 + conversationBoost × its conversation's fused relevance): the conversation ranking lends to its turns (0 = off). */
  conversationBoost: number;

  // ── constants: memory retrieval ───────────────────────────────────────────────────────────────────────────────
  /** Full-text candidates per view. */
  memoryCandidates: number;
  /** Preference memories a preference question adds as candidates. */
  preferenceLane: number;
  /** Keywords of a text (message, earlier turn, opener) and of the current topic searched. */
  memoryKeywords: number;
  topicKeywords: number;
  /** CJK character pairs asked for per text (memoryGrams). */
  memoryGramsPerText: number;
  /** The user's earlier turns that join the search (newest first), each weighted 1 / (n + 1)^dialogueDecay. */
  dialogueTurns: number;
  dialogueDecay: number;
  /** memoryViewStrength: a view keeps weight × (its best ÷ the strongest best)^strengthPower. */
  strengthPower: number;
  /** A topic word boosts (memoryTopicFocus) only when at most this share of the candidate memories holds it. */
  topicShare: number;
}

export const DEFAULT_RETRIEVAL_CONFIG: Readonly<RetrievalConfig> = Object.freeze({
  neighbours: true,
  timeAware: true,
  speakerCue: true,
  rerank: true,
  contextWindow: true,
  sessionContext: true,
  statements: true,
  verbForms: true,
  sessionRanking: true,
  memoryGrams: true,
  memoryDialogue: true,
  memoryTopicFocus: true,
  memoryOpener: true,
  memoryViewStrength: true,
  memoryOpenerTopic: true,
  semanticWeight: 1,
  fusionK: 60,
  semanticCandidates: 50,
  semanticFloor: 0.2,
  semanticTimeoutMs: 3000,
  semanticRetryMs: 30_000,
  candidates: 100,
  neighbourWeight: 0.5,
  answerWeight: 1,
  questionChars: 280,
  neighboured: 30,
  farWeight: 0.5,
  farAround: 10,
  sessionWeight: 0.1,
  statementWeight: 0.5,
  coverageWeight: 0.5,
  answerTypeWeight: 0.2,
  headFactor: 4,
  headExtra: 20,
  speakerBoost: 2,
  roleBoost: 4,
  maxNames: 3,
  nameMentions: 200,
  recentFloor: 0.9,
  timeLane: 60,
  rankBudget: 1000,
  probedTerms: 12,
  probeCap: 128,
  symbolHits: 50,
  symbolWindow: 500,
  sessionCandidates: 50,
  sessionFusionK: 60,
  sessionDocumentWeight: 0,
  sessionTurnWeight: 1,
  conversationBoost: 0,
  memoryCandidates: 200,
  preferenceLane: 20,
  memoryKeywords: 16,
  topicKeywords: 6,
  memoryGramsPerText: 32,
  dialogueTurns: 6,
  dialogueDecay: 2,
  strengthPower: 0.5,
  topicShare: 0.1,
});

/** The switchable techniques of each path, in the order the ablation reports them: turn recall (recall.search) … */
export const RECALL_TECHNIQUES = [
  'neighbours',
  'timeAware',
  'speakerCue',
  'rerank',
  'contextWindow',
  'sessionContext',
  'statements',
  'verbForms',
  'sessionRanking',
] as const satisfies readonly (keyof RetrievalConfig)[];
/** … and memory retrieval (memory.retrieve). */
export const MEMORY_TECHNIQUES = ['memoryGrams', 'memoryDialogue', 'memoryTopicFocus', 'memoryOpener', 'memoryViewStrength', 'memoryOpenerTopic'] as const satisfies readonly (keyof RetrievalConfig)[];

export const RETRIEVAL_TECHNIQUES = [...RECALL_TECHNIQUES, ...MEMORY_TECHNIQUES] as const;

export type RetrievalTechnique = (typeof RETRIEVAL_TECHNIQUES)[number];

/** Every technique of a path switched off: the seed formulas over plain full-text candidates. */
export function withoutTechniques(techniques: readonly RetrievalTechnique[]): Partial<RetrievalConfig> {
  return Object.fromEntries(techniques.map((t) => [t, false]));
}

export function retrievalConfig(overrides?: Partial<RetrievalConfig>): RetrievalConfig {
  return { ...DEFAULT_RETRIEVAL_CONFIG, ...overrides };
}
