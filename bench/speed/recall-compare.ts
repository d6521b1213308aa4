/**
 * Two runs of episode.query over the same queries compared (issue 17: a speed change to recall must return the same
 * episodes in the same order with the same explanations; a change of what it asks for — the term budget — must keep
 * the top 5 on both halves of the queries). Used by episode-recall-compare.ts; pure, so it is tested on its own.
 */

/** One query's answer as the comparison needs it: the episodes' ids in order and each one's why. */
export interface RecallAnswer {
  ids: string[];
  whys: unknown[];
  degraded: boolean;
}

export interface HalfComparison {
  queries: number;
  /** Same ids in the same order, same whys, same degraded flag. */
  identical: number;
  /** Same ids in the same order (the whys may differ). */
  sameOrder: number;
  /** Ids of a answered by b too, over the longer answer of each pair, summed. */
  shared: number;
  total: number;
}

/** Compares answers pairwise (a[i] with b[i]), split into the even and the odd queries (the two halves). */
export function compareRecall(a: readonly RecallAnswer[], b: readonly RecallAnswer[]): [HalfComparison, HalfComparison] {
  if (a.length !== b.length) throw new Error(`compareRecall: ${a.length} answers vs ${b.length}`);
  const halves: [HalfComparison, HalfComparison] = [0, 1].map(() => ({ queries: 0, identical: 0, sameOrder: 0, shared: 0, total: 0 })) as [HalfComparison, HalfComparison];
  a.forEach((x, i) => {
    const y = b[i]!;
    const h = halves[i % 2]!;
    h.queries++;
    const sameOrder = x.ids.length === y.ids.length && x.ids.every((id, k) => id === y.ids[k]);
    if (sameOrder) h.sameOrder++;
    if (sameOrder && x.degraded === y.degraded && JSON.stringify(x.whys) === JSON.stringify(y.whys)) h.identical++;
    h.shared += x.ids.filter((id) => y.ids.includes(id)).length;
    h.total += Math.max(x.ids.length, y.ids.length);
  });
  return halves;
}
