/**
 * MiniSearch and Orama in the same page, over the same generated turns and queries as the product: build time,
 * query latency and the JS heap they add. Both get the baselines' tokenizer (words + Han character bigrams): their
 * default tokenizers keep a run of Han characters as one term, which would make Chinese queries match nothing.
 * They run on the page's main thread, in memory — no worker hop, no disk — which is their best case.
 */
import MiniSearch from 'minisearch';
import { create, insertMultiple, search } from '@orama/orama';
import { bigramTerms } from '../recall/baselines/tokenize';
import { generateTurns, type CorpusQuery } from '../lib/corpus';

export interface PeerReport {
  name: 'minisearch' | 'orama';
  docs: number;
  buildMs: number;
  /** usedJSHeapSize after building (after a GC) minus before; null without performance.memory. */
  heapBytes: number | null;
  queryMs: number[];
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null;

async function measure(name: PeerReport['name'], opts: { docs: { id: string; text: string }[]; queries: CorpusQuery[]; limit: number }): Promise<PeerReport> {
  gc();
  const before = heap();
  const t0 = performance.now();
  let query: (text: string) => unknown;
  if (name === 'minisearch') {
    const index = new MiniSearch<{ id: string; text: string }>({ fields: ['text'], storeFields: [], tokenize: bigramTerms, searchOptions: { prefix: false, fuzzy: false } });
    index.addAll(opts.docs);
    query = (text) => index.search(text).slice(0, opts.limit);
  } else {
    const tokenizer = { language: 'bigrams', normalizationCache: new Map<string, string>(), tokenize: (raw: string) => bigramTerms(raw) };
    const db = create({ schema: { key: 'string', text: 'string' } as const, components: { tokenizer } });
    await insertMultiple(db, opts.docs.map((d) => ({ key: d.id, text: d.text })), 1000);
    query = (text) => search(db, { term: text, properties: ['text'], limit: opts.limit });
  }
  const buildMs = performance.now() - t0;
  gc();
  const after = heap();
  // The page's clock ticks in 100 µs steps (no cross-origin isolation) and these queries can be faster than that:
  // each query repeats until 2 ms have passed and counts the mean of its runs.
  const queryMs: number[] = [];
  for (const q of opts.queries) {
    let runs = 0;
    const t = performance.now();
    do {
      await query(q.text);
      runs++;
    } while (performance.now() - t < 2);
    queryMs.push((performance.now() - t) / runs);
  }
  return { name, docs: opts.docs.length, buildMs, heapBytes: before === null || after === null ? null : after - before, queryMs };
}

export async function runPeers(opts: { seed: number; count: number; queries: CorpusQuery[]; limit: number }): Promise<PeerReport[]> {
  const docs = [...generateTurns(opts)].map((t, i) => ({ id: String(i), text: t.content }));
  const out: PeerReport[] = [];
  // One at a time: each index is dropped (and collected) before the next is built, so heaps do not add up.
  for (const name of ['minisearch', 'orama'] as const) out.push(await measure(name, { docs, queries: opts.queries, limit: opts.limit }));
  return out;
}
