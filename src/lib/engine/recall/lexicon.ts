import { parseHyponyms, type HyponymTable } from '../../domain/recall/categories';

let loading: Promise<HyponymTable> | null = null;

/**
 * The WordNet kinds table (`hyponyms`), read once per worker and only when a question first needs it: the module
 * (~0.9 MB of text) is a chunk of its own, so it does not weigh on the worker's start; the PWA precaches it with the
 * other chunks (vite.config.ts `globPatterns`), so it loads offline too. A table that cannot be loaded (an update
 * replaced the chunk, storage evicted it) leaves this question without the expansion (an empty table), never
 * without an answer, and the next question tries again.
 */
export function loadHyponyms(load: () => Promise<{ HYPONYMS: string }> = () => import('../../domain/text/hyponyms-data')): Promise<HyponymTable> {
  loading ??= load().then(
    (m) => parseHyponyms(m.HYPONYMS),
    () => {
      loading = null;
      return new Map<string, readonly string[]>();
    },
  );
  return loading;
}
