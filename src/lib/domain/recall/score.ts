import { MAX_COPIES } from './redundancy';

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
 * 002 REQ-LTM-002 "召回时: 最近 5 轮完整内容, 更早轮次仅摘要", read for a ranked list: when a summarised block holds
 * more relevant turns than MAX_HITS_PER_BLOCK, its summary is listed once, in the place of the first turn beyond
 * them — it stands for the block's many relevant turns; that turn and the block's later ones are listed as they
 * come. There is no cap per block: a question's evidence is often several turns of one stretch of conversation,
 * and a hard cap of two per block cost 4–5 points of recall@10 on LoCoMo (docs/design/06-retrieval.md). What a
 * cap also did — keep a run of near-identical turns from filling a short list (SC-LTM-001) — is done by leaving
 * out a third near-copy (redundancy.ts), which no dev-set question needed.
 */
export const MAX_HITS_PER_BLOCK = 2;

export interface Blocked {
  block: string;
  relevance: number;
  createdAt: number;
}

/**
 * Best first (ties: newer first), up to `limit`; `standIn(block, hit)` may offer the hit to list before the first
 * hit of a block beyond `perBlock` (at most once per block). With `copies`, a hit that has MAX_COPIES near-copies
 * listed already is left out (redundancy.ts) — its block's summary may stand in for it instead.
 */
export function listHits<T extends Blocked>(
  hits: readonly T[],
  limit: number,
  opts: { perBlock?: number; standIn?: (block: string, hit: T) => T | null; copies?: (a: T, b: T) => boolean } = {},
): T[] {
  const perBlock = opts.perBlock ?? MAX_HITS_PER_BLOCK;
  const sorted = [...hits].sort((a, b) => b.relevance - a.relevance || b.createdAt - a.createdAt);
  const used = new Map<string, number>();
  const stoodIn = new Set<string>();
  const out: T[] = [];
  for (const h of sorted) {
    if (out.length >= limit) break;
    const n = used.get(h.block) ?? 0;
    used.set(h.block, n + 1);
    const copy = opts.copies !== undefined && out.length >= MAX_COPIES && out.filter((o) => opts.copies?.(o, h)).length >= MAX_COPIES;
    if ((n >= perBlock || copy) && !stoodIn.has(h.block)) {
      stoodIn.add(h.block);
      const standIn = opts.standIn?.(h.block, h);
      if (standIn) {
        out.push(standIn);
        if (out.length >= limit) break;
      }
    }
    if (!copy) out.push(h);
  }
  return out;
}
