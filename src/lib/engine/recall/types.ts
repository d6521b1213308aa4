import type { RecallScore } from '../../domain/recall/score';
import type { TurnSignals } from '../../domain/recall/rank-turns';
import type { RecencyBasis } from '../../domain/recall/time-fit';

/** Why a hit ranked where it did: 002's three terms and every signal behind them (the "why" view). */
export type RecallExplain = RecallScore & {
  matchedSymbols: string[];
  /** The turn's own bm25 (FTS5: negative, lower is better); null when it did not match the words itself. */
  ftsRank: number | null;
  signals: TurnSignals;
  /** Kinds of a category of the question that the turn holds ("chess" for "board games"; hyponyms), if any. */
  kinds?: { kind: string; category: string }[];
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

/** What the question was read as. */
export interface RecallQueryInfo {
  keywords: string[];
  symbols: string[];
  /** Keywords searched by bm25 after pruning … */
  terms: string[];
  /** … and those dropped as too common. */
  pruned: string[];
  /** True when only the newest matches were ranked (a question of very common words in a long history). */
  windowed: boolean;
  /** Categories the question gathers over, searched by their kinds too (hyponyms): "board game" → chess, backgammon … */
  categories?: { category: string; kinds: string[] }[];
  /** Time expressions resolved against the clock. */
  times: { expression: string; start: number; end: number }[];
  recency: RecencyBasis;
  /** Whose turns the question is about: a named participant, or a role from its pronouns. */
  speaker: { kind: 'named' | 'role'; names: string[]; role: 'user' | 'assistant' | null } | null;
}

export interface RecallResponse {
  results: RecallHit[];
  totalSearched: number;
  latencyMs: number;
  query: RecallQueryInfo;
}
