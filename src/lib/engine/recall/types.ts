import type { RecallScore } from '../../domain/recall/score';

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
  /** Every term of the 002 formula, for the "why" view. */
  explain: RecallScore & { matchedSymbols: string[]; ftsRank: number | null };
}

export interface RecallResponse {
  results: RecallHit[];
  totalSearched: number;
  latencyMs: number;
  query: { keywords: string[]; symbols: string[] };
}
