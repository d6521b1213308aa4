import type { RecallScore } from './score';
import type { TurnSignals } from './rank-turns';
import type { RecencyBasis } from './time-fit';

/** Why a hit ranked where it did: 002's three terms and every signal behind them (the "why" view). */
export type RecallExplain = RecallScore & {
  matchedSymbols: string[];
  /** The turn's own bm25 (FTS5: negative, lower is better); null when it did not match the words itself. */
  ftsRank: number | null;
  signals: TurnSignals;
};

/** 002 memory_recall result entry (camelCase in the app; the CLI prints the seed's snake_case). */
export interface RecallHit {
  conversationId: string;
  sessionTitle: string;
  /** The message id for a turn; null for a summary. */
  turnId: number | null;
  turnNo: number | null;
  role: 'user' | 'assistant' | null;
  /** The turn's full text (turns) … */
  content: string | null;
  /** … or the summary's text (summaries). */
  summary: string | null;
  summaryId: number | null;
  turnRange: [number, number] | null;
  relevance: number;
  createdAt: number;
  isSummary: boolean;
  /** Every term of the 002 formula and the signals behind it; a summary carries its block's turn's. */
  explain: RecallExplain;
}

/**
 * "Which conversation was it" (issue 18): a conversation ranked as a unit — its own document (summaries and user
 * turns) fused with where its turns stand in the turn ranking (session-rank.ts).
 */
export interface ConversationHit {
  conversationId: string;
  sessionTitle: string;
  /** Fused score relative to the best conversation (0..1). */
  relevance: number;
  /** 1-based place of the conversation's document in the document ranking (null: its document did not match). */
  documentRank: number | null;
  /** 1-based place of the conversation's best turn among the distinct conversations of the turn ranking (null: none). */
  turnRank: number | null;
  /** The conversation's best turn in the turn ranking (null: found by its document only). */
  bestTurnId: number | null;
  /** When the conversation was last written to. */
  lastActive: number;
}

/** What the question was read as. */
export interface RecallQueryInfo {
  keywords: string[];
  symbols: string[];
  /** Keywords searched by bm25. */
  terms: string[];
  /** True when only the newest matches were ranked (a question of very common words in a long history). */
  windowed: boolean;
  /** Time expressions resolved against the clock. */
  times: { expression: string; start: number; end: number }[];
  recency: RecencyBasis;
  /** Whose turns the question is about: a named participant, or a role from its pronouns. */
  speaker: { kind: 'named' | 'role'; names: string[]; role: 'user' | 'assistant' | null } | null;
  /**
   * Meaning-based recall (issue 18): 'on' when the question's embedding was fused with the lexical ranking; 'off'
   * when no embedding model is configured; 'degraded' when one is but could not be used (the reason says why), so
   * the ranking is lexical only.
   */
  semantic: { state: 'on' | 'off' | 'degraded'; model: string | null; reason: string | null; coverage: number | null; timing?: SemanticTiming };
}

/**
 * Where a meaning lane's time went (issue 18, read by the speed benchmark's vectors mode), in ms: `where` it searched
 * (the vector-search worker or the caller's thread), the question's embedding round trip (null: its vector was
 * cached), the search, the lane from its start to its answer; and, from the turn recall, its lexical lanes (which
 * the lane runs beside) and how long it then waited for the lane.
 */
export interface SemanticTiming {
  where: 'worker' | 'here';
  embedMs: number | null;
  searchMs: number;
  laneMs: number;
  lexicalMs?: number;
  waitMs?: number;
}

export interface RecallResponse {
  results: RecallHit[];
  /** The conversations ranked as units (session ranking), best first, at most `limit`. */
  conversations: ConversationHit[];
  totalSearched: number;
  latencyMs: number;
  query: RecallQueryInfo;
}
