/**
 * Seed 002 REQ-LTM-005, the conversation-turn score:
 *   relevance = symbol_match × 0.4 + recency × 0.3 + context_similarity × 0.3
 * (Memories use seed 001's formula instead; see domain/memory.) Each term is 0..1 and kept for the
 * explain view.
 */
export const RECALL_WEIGHTS = { symbol: 0.4, recency: 0.3, context: 0.3 } as const;

/**
 * A summary names a symbol less precisely than the turn that discusses it: its key symbols count with
 * this relevance, so the turn itself ranks first for an exact symbol query (SC-LTM-002).
 */
export const SUMMARY_SYMBOL_RELEVANCE = 0.5;

/** Recency halves every 30 days: old enough to matter across weeks of a project, not minutes. */
export const RECALL_RECENCY_HALF_LIFE_DAYS = 30;

export interface RecallTerms {
  symbol: number;
  recency: number;
  context: number;
}

export interface RecallScore {
  relevance: number;
  terms: RecallTerms;
  weighted: RecallTerms;
}

export function recallScore(terms: RecallTerms): RecallScore {
  const weighted = {
    symbol: terms.symbol * RECALL_WEIGHTS.symbol,
    recency: terms.recency * RECALL_WEIGHTS.recency,
    context: terms.context * RECALL_WEIGHTS.context,
  };
  return { relevance: weighted.symbol + weighted.recency + weighted.context, terms, weighted };
}

export function recencyScore(createdAt: number, now: number, halfLifeDays = RECALL_RECENCY_HALF_LIFE_DAYS): number {
  const ageDays = Math.max(0, now - createdAt) / 86_400_000;
  return Math.pow(0.5, ageDays / halfLifeDays);
}

/**
 * How well a turn's symbols cover the query's symbols: each query symbol found counts with the turn's
 * relevance for it (exact match, case-insensitive). 0 when the query names no symbol.
 */
export function symbolMatchScore(querySymbols: readonly string[], turnSymbols: ReadonlyMap<string, number>): number {
  if (querySymbols.length === 0) return 0;
  let sum = 0;
  for (const q of querySymbols) sum += turnSymbols.get(q.toLowerCase()) ?? 0;
  return Math.min(1, sum / querySymbols.length);
}

/** FTS5 bm25 ranks (negative; lower is better) → 0..1 by the best rank in the candidate set. */
export function bm25Similarity(rank: number, bestRank: number): number {
  if (!(bestRank < 0) || !(rank < 0)) return 0;
  return Math.min(1, rank / bestRank);
}

/**
 * 002 REQ-LTM-002 "召回时: 最近 5 轮完整内容, 更早轮次仅摘要": an older (summarised) block is
 * represented by its summary plus its single best turn, never by a run of its turns, and any other
 * block yields at most this many hits — so one long matching stretch cannot crowd out the rest.
 */
export const MAX_HITS_PER_BLOCK = 2;
/** A summary brought in by one of its turns ranks just below that turn. */
export const SUMMARY_FROM_TURN_FACTOR = 0.95;

export interface Blocked {
  block: string;
  /** This hit's own cap for its block (default MAX_HITS_PER_BLOCK). */
  cap?: number;
  relevance: number;
  createdAt: number;
}

/** Best first, at most MAX_HITS_PER_BLOCK per block, up to `limit`. */
export function diversify<T extends Blocked>(hits: readonly T[], limit: number, perBlock = MAX_HITS_PER_BLOCK): T[] {
  const sorted = [...hits].sort((a, b) => b.relevance - a.relevance || b.createdAt - a.createdAt);
  const used = new Map<string, number>();
  const out: T[] = [];
  for (const h of sorted) {
    const n = used.get(h.block) ?? 0;
    if (n >= (h.cap ?? perBlock)) continue;
    used.set(h.block, n + 1);
    out.push(h);
    if (out.length >= limit) break;
  }
  return out;
}
