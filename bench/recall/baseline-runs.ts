import { BASELINES, fusedSearch, type BaselineDoc, type BaselineLanguage } from './baselines';
import { DEEP_LIMIT } from './evaluate';

export type BaselineQuery = string | readonly { text: string; weight: number }[];

/**
 * Every baseline over the same units and queries: name → (query index → the ids of its top 50, best first).
 * An index is built once per corpus (a conversation, a question's haystack, a user's memories) and dropped after.
 */
export async function runBaselines(opts: {
  docs: readonly BaselineDoc[];
  language: BaselineLanguage;
  queries: readonly BaselineQuery[];
  timings: Map<string, number>;
}): Promise<Map<string, string[][]>> {
  const out = new Map<string, string[][]>();
  for (const baseline of BASELINES) {
    const t0 = performance.now();
    const index = await baseline.build(opts.docs, opts.language);
    const lists: string[][] = [];
    for (const q of opts.queries) {
      const hits = typeof q === 'string' ? await index.search(q, DEEP_LIMIT) : await fusedSearch(index, q, DEEP_LIMIT);
      lists.push(hits.map((h) => h.id));
    }
    index.close();
    out.set(baseline.name, lists);
    opts.timings.set(baseline.name, (opts.timings.get(baseline.name) ?? 0) + performance.now() - t0);
  }
  return out;
}

export const BASELINE_NAMES = BASELINES.map((b) => b.name);
