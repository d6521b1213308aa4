import { fts5Baseline } from './fts5';
import { minisearchBaseline } from './minisearch';
import { oramaBaseline } from './orama';
import type { Baseline, BaselineIndex, ScoredId } from './types';

export type { Baseline, BaselineDoc, BaselineIndex, ScoredId } from './types';
export { termsFor, type BaselineLanguage } from './tokenize';

export const BASELINES: readonly Baseline[] = [fts5Baseline, minisearchBaseline, oramaBaseline];

/**
 * One ranking from several weighted queries (MADial: the user turns before the test turn, the most recent weighted
 * most): each query's scores are scaled to its best hit, multiplied by its weight and summed per unit.
 */
export async function fusedSearch(index: BaselineIndex, queries: readonly { text: string; weight: number }[], limit: number): Promise<ScoredId[]> {
  const total = new Map<string, number>();
  for (const q of queries) {
    const hits = await index.search(q.text, limit);
    const best = hits[0]?.score ?? 0;
    if (best <= 0) continue;
    for (const h of hits) total.set(h.id, (total.get(h.id) ?? 0) + (q.weight * h.score) / best);
  }
  return [...total]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, limit);
}
