/**
 * Seed 002 REQ-LTM-005, the conversation-turn score:
 *   relevance = symbol_match × 0.4 + recency × 0.3 + context_similarity × 0.3
 * (Memories use seed 001's formula instead; see domain/memory.) Each term is 0..1 and kept for the
 * explain view.
 */
export const RECALL_WEIGHTS = { symbol: 0.4, recency: 0.3, context: 0.3 } as const;

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

/**
 * 002 REQ-LTM-002 "召回时: 最近 5 轮完整内容, 更早轮次仅摘要", read for a ranked list: a block of turns yields at most
 * MAX_HITS_PER_BLOCK turns, so one long matching stretch cannot crowd out the rest; when a summarised block has more
 * relevant turns than that, its summary is listed in place of the next one — it stands for the rest of the block.
 * A summary therefore takes a slot only when its block holds more than the list would show.
 */
export const MAX_HITS_PER_BLOCK = 2;

export interface Blocked {
  block: string;
  relevance: number;
  createdAt: number;
}

/**
 * Best first (ties: newer first), at most `perBlock` per block, up to `limit`; `standIn(block, skipped)` may offer
 * the hit to list instead of the first one a block's cap turns away (at most once per block).
 */
export function diversify<T extends Blocked>(
  hits: readonly T[],
  limit: number,
  opts: { perBlock?: number; standIn?: (block: string, skipped: T) => T | null } = {},
): T[] {
  const perBlock = opts.perBlock ?? MAX_HITS_PER_BLOCK;
  const sorted = [...hits].sort((a, b) => b.relevance - a.relevance || b.createdAt - a.createdAt);
  const used = new Map<string, number>();
  const stoodIn = new Set<string>();
  const out: T[] = [];
  for (const h of sorted) {
    if (out.length >= limit) break;
    const n = used.get(h.block) ?? 0;
    if (n < perBlock) {
      used.set(h.block, n + 1);
      out.push(h);
      continue;
    }
    if (stoodIn.has(h.block)) continue;
    stoodIn.add(h.block);
    const standIn = opts.standIn?.(h.block, h);
    if (standIn) out.push(standIn);
  }
  return out;
}
