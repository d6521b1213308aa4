/**
 * The background load of the in-memory vector index (issue 18): when the database opens the stored model's vectors
 * are read in slices that yield, a recall before the load is done is lexical and says why ('index-loading'), and
 * vectors stored while the load is under way are neither lost nor duplicated.
 */
import { describe, expect, it } from 'vitest';
import { quantise } from '../../domain/embeddings/quantise';
import { VectorIndex } from '../../domain/embeddings/vector-index';
import { silentLogger as silent, type Logger } from '../../domain/log';
import { DEFAULT_RETRIEVAL_CONFIG } from '../../domain/recall/config';
import type { EmbeddingKind, EmbeddingStore } from './embedding-store';
import { createSemanticService, toBytes } from './semantic-service';
import { createVectorIndexes } from './vector-loader';

const DIMS = 8;
const vec = (id: number): Uint8Array => toBytes(quantise(Array.from({ length: DIMS }, (_, i) => Math.sin(id * 7 + i) + (i === 0 ? 1 : 0))));

/** The embeddings table of one model in memory, counting reads. */
function fakeStore(n: number) {
  const rows = new Map<number, Uint8Array>();
  for (let id = 1; id <= n; id++) rows.set(id, vec(id));
  const reads: number[] = [];
  const store: Pick<EmbeddingStore, 'vectorsAfter' | 'storedModel'> = {
    storedModel: () => 'm',
    vectorsAfter: (model: string, kind: EmbeddingKind, afterId: number, limit: number) => {
      if (model !== 'm') return null;
      const out = kind === 'turn' ? [...rows.entries()].filter(([id]) => id > afterId).sort((a, b) => a[0] - b[0]).slice(0, limit) : [];
      reads.push(out.length);
      return { dims: DIMS, rows: out.map(([id, vector]) => ({ id, vector })) };
    },
  };
  return { store, rows, reads };
}

describe('the vector index loads in the background when the database opens (issue 18)', () => {
  it('reads nothing while opening, then one slice per turn of the event loop until every vector is in memory', async () => {
    const { store, reads } = fakeStore(10);
    let turns = 0;
    const indexes = createVectorIndexes({ store, log: silent, slice: 3, yieldNow: () => new Promise((r) => setTimeout(() => (turns++, r()), 0)) });
    indexes.warm();
    expect(reads).toEqual([]); // the open itself is not slowed by the load
    await indexes.settled();
    expect(reads.filter((n) => n > 0)).toEqual([3, 3, 3, 1]); // the turns in slices of 3 (the memories: one empty read)
    expect(turns).toBeGreaterThanOrEqual(4); // every slice after a yield: foreground calls wait at most one slice
    const { index, loading } = indexes.ready('m', 'turn');
    expect(loading).toBe(false);
    expect(index?.size).toBe(10);
  });

  const question = async () => [Array.from(quantise(Array.from({ length: DIMS }, (_, i) => Math.sin(5 * 7 + i) + (i === 0 ? 1 : 0))), (x) => x / 127)];
  const serviceOver = (store: Pick<EmbeddingStore, 'vectorsAfter' | 'storedModel'>, loadSlice?: number) => {
    const service = createSemanticService({
      store: store as EmbeddingStore,
      log: silent,
      now: () => 0,
      config: () => ({ ...DEFAULT_RETRIEVAL_CONFIG, semanticFloor: -1 }),
      embed: question,
      ...(loadSlice ? { loadSlice } : {}),
    });
    service.configure({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm', timeoutMs: 1000 });
    return service;
  };

  it('a small store (one slice) is ready for the first recall right after the database opens', async () => {
    // The service warmed the index when the model was configured (nothing read yet); the recall reads the one slice (2048 rows ≥ 10).
    const small = await serviceOver(fakeStore(10).store).lane('turn', 'the question');
    expect(small.info.state).toBe('on');
    expect([...small.hits.keys()]).toContain(5);
  });

  it('a recall while a larger store is still loading is lexical and says why (degraded, index-loading); once loaded the lane is on', async () => {
    const service = serviceOver(fakeStore(10).store, 3);
    const early = await service.lane('turn', 'the question');
    expect(early.info).toMatchObject({ state: 'degraded', model: 'm', reason: 'index-loading' });
    expect(early.hits.size).toBe(0);
    await service.settled();
    const later = await service.lane('turn', 'the question');
    expect(later.info.state).toBe('on');
    expect([...later.hits.keys()]).toContain(5);
  });

  it('with a store larger than a slice, the first recall is degraded (index-loading) and a later one uses the lane', async () => {
    const { store } = fakeStore(10);
    const indexes = createVectorIndexes({ store, log: silent, slice: 4 });
    const first = indexes.ready('m', 'turn');
    expect(first).toEqual({ index: null, loading: true });
    await indexes.settled();
    const later = indexes.ready('m', 'turn');
    expect(later.loading).toBe(false);
    expect(later.index?.size).toBe(10);
  });

  it('keeps vectors stored during the load, behind and ahead of its cursor, each once', async () => {
    const { store, rows } = fakeStore(10);
    const indexes = createVectorIndexes({ store, log: silent, slice: 3 });
    indexes.warm();
    await new Promise((r) => setTimeout(r, 0)); // one slice read: ids 1..3
    // Stored now: one behind the cursor (a replaced vector), two ahead of it (new turns).
    const items = [2, 11, 12].map((id) => ({ kind: 'turn' as const, id, vector: vec(id + 100) }));
    for (const item of items) rows.set(item.id, item.vector);
    indexes.stored('m', items, 0);
    await indexes.settled();
    const { index } = indexes.ready('m', 'turn');
    expect(index?.size).toBe(12);
    // The replaced vector is the new one: searching for it finds id 2 first (no mirror: the vectors are held here).
    if (!(index instanceof VectorIndex)) throw new Error('without a mirror the index holds the vectors');
    const hits = index.search(new Int8Array(vec(102).buffer), { k: 1, floor: -1 });
    expect(hits[0]?.id).toBe(2);
  });

  it('drops a load whose database went away, and starts afresh on the next use', async () => {
    const { store } = fakeStore(10);
    let broken = false;
    const flaky = { ...store, vectorsAfter: (...a: Parameters<typeof store.vectorsAfter>) => (broken ? (() => { throw new Error('closed'); })() : store.vectorsAfter(...a)) };
    const warnings: string[] = [];
    const log: Logger = { ...silent, warn: (event: string) => void warnings.push(event) };
    const indexes = createVectorIndexes({ store: flaky, log, slice: 3 });
    indexes.warm();
    broken = true;
    await indexes.settled();
    expect(warnings).toContain('recall.vector-load-failed');
    broken = false;
    expect(indexes.ready('m', 'turn').loading).toBe(true);
    await indexes.settled();
    expect(indexes.ready('m', 'turn').index?.size).toBe(10);
  });
});
