/**
 * Seed 001's keyword_score ("关键词匹配度", 0..1) from several lexical views of the conversation (issue 8):
 *
 *   the message itself (+ the topic's words)  weight 1        bm25 over words + CJK character pairs
 *   the user's earlier turns, newest first     1/4, 1/9, …    the same, one search per turn
 *   the chat's opening message                 1/4            the same
 *
 * Each view's bm25 is scaled to its own best hit (normaliseBm25), each lexical view's weight by how strong that
 * best hit is (weighByStrength), the views are summed with their weights, and the sum is scaled to the best
 * memory, so the best match scores 1 — as a single bm25 did before.
 */

export type KeywordView = 'message' | 'dialogue' | 'semantic';

export interface KeywordPart {
  view: KeywordView;
  weight: number;
  /** memory id → 0..1 within this view */
  scores: ReadonlyMap<string, number>;
  /** The view's best raw bm25 relevance (−rank of its first hit), for weighByStrength. */
  best?: number;
}

export interface FusedKeyword {
  keywordScore: number;
  /** Each view's weighted contribution before the final scaling. */
  parts: Partial<Record<KeywordView, number>>;
}

/**
 * Recency weight of the user's n-th turn before the message (n = 1 is the one right before): 1/(n+1)^decay; with
 * the default decay 2 (RetrievalConfig.dialogueDecay) the message itself outweighs all earlier turns together
 * (Σ 1/(n+1)² < 0.65) and a conversation that drifted does not pull retrieval back to where it started.
 */
export function dialogueWeight(n: number, decay = 2): number {
  return 1 / (n + 1) ** decay;
}

/**
 * memoryViewStrength (issue 8, round 4): each lexical view is scaled to its own best hit, so a turn that shares one
 * common word with one memory ("我好期待！" and a memory that says 期待) hands that memory a full 1 — at the message's
 * weight, more than the opener's 音乐会 and 钢琴 together give the memories about the concert. The view's best raw bm25 says
 * how much the turn shares with any memory at all: a weight is multiplied by the square root of its best over the
 * strongest view's best. The strongest view keeps its weight; the root keeps a weaker turn in play (a linear factor
 * is round 3's "one bm25 scale across views", which lost). Views without a bm25 (the mood) are left as they are.
 */
export function weighByStrength(parts: readonly KeywordPart[], power = 0.5): KeywordPart[] {
  const strongest = Math.max(0, ...parts.map((p) => p.best ?? 0));
  if (!(strongest > 0)) return [...parts];
  return parts.map((p) => (p.best === undefined ? p : { ...p, weight: p.weight * (Math.max(0, p.best) / strongest) ** power }));
}

export function fuseKeywordScores(parts: readonly KeywordPart[]): Map<string, FusedKeyword> {
  const raw = new Map<string, FusedKeyword>();
  for (const p of parts) {
    for (const [id, s] of p.scores) {
      if (!(s > 0)) continue;
      const f = raw.get(id) ?? { keywordScore: 0, parts: {} };
      f.keywordScore += p.weight * s;
      f.parts[p.view] = (f.parts[p.view] ?? 0) + p.weight * s;
      raw.set(id, f);
    }
  }
  let best = 0;
  for (const f of raw.values()) best = Math.max(best, f.keywordScore);
  if (best > 0) for (const f of raw.values()) f.keywordScore /= best;
  return raw;
}

/** Lexical scores fused with meaning (issue 18): the generic function lives with the other fusions (recall/fusion.ts). */
export { fuseWithMeaning } from '../recall/fusion';
