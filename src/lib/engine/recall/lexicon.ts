import { parseHyponyms, type HyponymTable } from '../../domain/recall/categories';

let loading: Promise<HyponymTable> | null = null;

/**
 * The WordNet kinds table (`hyponyms`), read once per worker and only when a question first needs it: the module
 * (~0.9 MB of text) is a chunk of its own, so it does not weigh on the worker's start; the PWA precaches it with the
 * other chunks (vite.config.ts `globPatterns`), so it loads offline too. A table that cannot be loaded leaves recall
 * without the expansion (an empty table), never without an answer.
 */
export function loadHyponyms(): Promise<HyponymTable> {
  loading ??= import('../../domain/text/hyponyms-data').then(
    (m) => parseHyponyms(m.HYPONYMS),
    () => new Map<string, readonly string[]>(),
  );
  return loading;
}
