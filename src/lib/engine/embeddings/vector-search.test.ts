/**
 * The vector-search worker (issue 18): the DB worker mirrors its vector indexes into a worker of their own and asks
 * it for a recall's nearest turns before the lexical lanes start, so the search runs beside them. Here the worker's
 * side is served over a Node MessageChannel (the same code the Web Worker entry runs): its hits must be the
 * in-process search's, a failing worker must leave recall working in-process, and an endpoint failing in the worker
 * must degrade the lane as it does in-process.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { quantise } from '../../domain/embeddings/quantise';
import { EngineError } from '../../domain/errors';
import { memoryLogger, silentLogger } from '../../domain/log';
import { DEFAULT_RETRIEVAL_CONFIG, type RetrievalConfig } from '../../domain/recall/config';
import type { EmbeddingKind, EmbeddingStore } from './embedding-store';
import { createSemanticService, toBytes, type EmbedFn } from './semantic-service';
import { VectorIndex } from '../../domain/embeddings/vector-index';
import { createVectorIndexes, MirroredIndex } from './vector-loader';
import { createVectorSearchClient, type WorkerLike } from './vector-search-client';
import { serveVectorSearch, type PortLike } from './vector-search-worker';

const DIMS = 48;
/** Clustered like real embeddings: 16 centres plus as much noise again (deterministic in the id). */
function vector(key: number): number[] {
  const s = (i: number) => Math.sin(key * 12.9898 + i * 78.233) * 43758.5453;
  const noise = (i: number) => s(i) - Math.floor(s(i)) - 0.5;
  const centre = key % 16;
  return Array.from({ length: DIMS }, (_, i) => Math.cos(centre * 3.1 + i) + noise(i) * 2);
}
const textKey = (text: string) => [...text].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0, 0x811c9dc5);

/** One model's turn vectors in memory (6,000: past the size where the search takes its two-stage path). */
function fakeStore(n: number) {
  const rows = new Map<number, Uint8Array>();
  for (let id = 1; id <= n; id++) rows.set(id, toBytes(quantise(vector(id))));
  const store = {
    storedModel: () => 'm',
    vectorsAfter: (model: string, kind: EmbeddingKind, afterId: number, limit: number) => {
      if (model !== 'm') return null;
      const out = kind === 'turn' ? [...rows.entries()].filter(([id]) => id > afterId).sort((a, b) => a[0] - b[0]).slice(0, limit) : [];
      return { dims: DIMS, rows: out.map(([id, v]) => ({ id, vector: v })) };
    },
  } as unknown as EmbeddingStore;
  return { store, rows };
}

const config = (): RetrievalConfig => ({ ...DEFAULT_RETRIEVAL_CONFIG, semanticCandidates: 10, semanticFloor: -1 });
const endpoint = { baseUrl: 'http://127.0.0.1:1/v1', apiKey: '', model: 'm', timeoutMs: 1000 };

function embedder() {
  const calls: string[] = [];
  const endpoints = new Set<string>();
  const embed: EmbedFn = async (e, texts) => {
    endpoints.add(JSON.stringify(e));
    calls.push(...texts);
    return texts.map((t) => vector(textKey(t)));
  };
  return { embed, calls, endpoints };
}

/** The worker's side on one end of a MessageChannel; the DB worker's client gets the other (as a Worker). */
function channelWorker(embed: EmbedFn) {
  const { port1, port2 } = new MessageChannel();
  /** What was posted: its kind, and for a `set` its row count (read before its buffers are transferred away). */
  const posted: { t: string; rows?: number }[] = [];
  serveVectorSearch(port2 as unknown as PortLike, { embed });
  port2.start();
  const worker: WorkerLike = {
    postMessage: (m, transfer) => {
      const msg = m as { t: string; ids?: Float64Array };
      posted.push({ t: msg.t, ...(msg.ids ? { rows: msg.ids.length } : {}) });
      (port1 as MessagePort).postMessage(m, transfer as never);
    },
    addEventListener: (type, listener) => port1.addEventListener(type as 'message', listener as never),
    terminate: () => port1.close(),
  };
  port1.start();
  return { worker, posted, close: () => (port1.close(), port2.close()) };
}

const questions = Array.from({ length: 12 }, (_, i) => `question number ${i} about something`);

async function service(opts: { store: EmbeddingStore; worker?: WorkerLike; embed: EmbedFn; log?: ReturnType<typeof memoryLogger> }) {
  const s = createSemanticService({ store: opts.store, log: opts.log ?? silentLogger, now: () => 0, config, embed: opts.embed, vectorWorker: opts.worker ? () => opts.worker as WorkerLike : null });
  s.configure(endpoint);
  await s.settled();
  return s;
}

describe('the vector search runs in a worker of its own, beside the lexical lanes (issue 18)', { timeout: 30_000 }, () => {
  it('finds the same nearest turns as the in-process search, for vectors loaded at open and stored afterwards', async () => {
    const { store } = fakeStore(6000);
    const here = await service({ store, embed: embedder().embed });
    const dbSide = embedder();
    const workerSide = embedder();
    const ch = channelWorker(workerSide.embed);
    const there = await service({ store, worker: ch.worker, embed: dbSide.embed });
    const compare = async () => {
      for (const q of questions) {
        const a = await here.lane('turn', q);
        const b = await there.lane('turn', q);
        expect(b.info.state).toBe('on');
        expect(b.info.timing?.where).toBe('worker');
        expect(b.hits.size).toBe(10);
        expect([...b.hits]).toEqual([...a.hits]);
      }
    };
    await compare();
    // The question was embedded in the worker (the DB worker's thread never waited on the endpoint) …
    expect(workerSide.calls).toEqual(questions);
    expect(dbSide.calls).toEqual([]);
    // … with the configured endpoint and nothing else (its base URL, key, model; the timeout is the lane's).
    expect([...workerSide.endpoints].map((e) => JSON.parse(e) as typeof endpoint)).toEqual([endpoint]);
    // … and its vector came back: asked again, the cached vector goes to the worker, the endpoint is not asked.
    await compare();
    expect(workerSide.calls).toEqual(questions);
    expect(ch.posted.filter((m) => m.t === 'query')).toHaveLength(2 * questions.length);

    // New vectors (new turns, and one re-embedded turn) reach the mirror before the next search.
    // Each is the very vector of a question, so it must come first for that question.
    const items = [6001, 6002, 17].map((id, i) => ({ kind: 'turn' as const, id, vector: toBytes(quantise(vector(textKey(questions[i] as string)))) }));
    here.stored('m', items, 0);
    there.stored('m', items, 0);
    await compare();
    for (const [i, id] of [6001, 6002, 17].entries()) expect([...(await there.lane('turn', questions[i] as string)).hits.keys()][0]).toBe(id);
    ch.close();
  });

  it('asks the worker before lane() returns, so the search is under way while the caller runs the lexical lanes', async () => {
    const { store } = fakeStore(6000);
    const ch = channelWorker(embedder().embed);
    const there = await service({ store, worker: ch.worker, embed: embedder().embed });
    const before = ch.posted.filter((m) => m.t === 'query').length;
    const pending = there.lane('turn', questions[0] as string);
    expect(ch.posted.filter((m) => m.t === 'query').length).toBe(before + 1); // posted synchronously
    expect((await pending).info.state).toBe('on');
    ch.close();
  });

  it('keeps only the ids in the DB worker while the worker holds the vectors, so the vectors are in memory once', async () => {
    const { store } = fakeStore(6000);
    const ch = channelWorker(embedder().embed);
    const mirrored = createVectorIndexes({ store, log: silentLogger, mirror: createVectorSearchClient(ch.worker, silentLogger) });
    mirrored.warm();
    await mirrored.settled();
    const inWorker = mirrored.ready('m', 'turn').index;
    expect(inWorker).toBeInstanceOf(MirroredIndex);
    expect(inWorker).not.toHaveProperty('search');
    expect(inWorker?.size).toBe(6000);
    // Every vector crossed to the worker (the loads' batches, their buffers transferred).
    expect(ch.posted.filter((m) => m.t === 'set').reduce((n, m) => n + (m.rows ?? 0), 0)).toBe(6000);
    // Without a worker the DB worker holds and searches them itself.
    const alone = createVectorIndexes({ store, log: silentLogger });
    alone.warm();
    await alone.settled();
    expect(alone.ready('m', 'turn').index).toBeInstanceOf(VectorIndex);
    ch.close();
  });

  it('loads the vectors here when the worker fails (lexical meanwhile, logged once), then searches in-process with the same hits', async () => {
    const { store } = fakeStore(6000);
    const here = await service({ store, embed: embedder().embed });
    const listeners: Record<string, ((e: MessageEvent) => void)[]> = {};
    let posts = 0;
    const broken: WorkerLike = {
      postMessage: (m) => {
        posts++;
        // The worker dies on a search (an uncaught error in it): its error event, no answer.
        if ((m as { t: string }).t === 'query') queueMicrotask(() => listeners.error?.forEach((l) => l(new MessageEvent('error'))));
      },
      addEventListener: (type, l) => (listeners[type] ??= []).push(l),
    };
    const log = memoryLogger();
    const there = await service({ store, worker: broken, embed: embedder().embed, log });
    // The worker held the only copy: the search it died on answers lexical and says why, while the vectors load here.
    const during = await there.lane('turn', questions[0] as string);
    expect(during.hits.size).toBe(0);
    expect(during.info).toMatchObject({ state: 'degraded', reason: 'index-loading' });
    await there.settled();
    for (const q of questions.slice(0, 3)) {
      const a = await here.lane('turn', q);
      const b = await there.lane('turn', q);
      expect(b.info).toMatchObject({ state: 'on', timing: { where: 'here' } });
      expect([...b.hits]).toEqual([...a.hits]);
    }
    expect(log.lines.filter((l) => l.event === 'recall.vector-worker-failed')).toEqual([{ level: 'warn', event: 'recall.vector-worker-failed', fields: { reason: 'error' } }]);
    const after = posts;
    await there.lane('turn', questions[5] as string);
    expect(posts).toBe(after); // a failed worker is not asked again
  });

  it('degrades the lane when the endpoint fails in the worker, as it does in-process', async () => {
    const { store } = fakeStore(3000);
    const failing: EmbedFn = async () => {
      throw new EngineError('MODEL_UNAVAILABLE', 'down', { reason: 'unreachable' });
    };
    const ch = channelWorker(failing);
    const log = memoryLogger();
    const there = await service({ store, worker: ch.worker, embed: embedder().embed, log });
    const res = await there.lane('turn', 'anything at all');
    expect(res.hits.size).toBe(0);
    expect(res.info).toMatchObject({ state: 'degraded', reason: 'unreachable' });
    expect(there.lastFailure()).toBe('unreachable');
    expect(log.lines.some((l) => l.event === 'recall.semantic-degraded' && l.fields?.reason === 'unreachable')).toBe(true);
    ch.close();
  });
});

describe('the search worker and the vectors load start only when meaning-based recall is on (issue 18)', { timeout: 30_000 }, () => {
  /** A service whose worker factory and store count what they are asked. */
  function counted() {
    const { store } = fakeStore(50);
    const reads = { storedModel: 0, vectorsAfter: 0 };
    const countedStore = {
      storedModel: () => (reads.storedModel++, store.storedModel()),
      vectorsAfter: (...a: Parameters<EmbeddingStore['vectorsAfter']>) => (reads.vectorsAfter++, store.vectorsAfter(...a)),
    } as unknown as EmbeddingStore;
    const channels: ReturnType<typeof channelWorker>[] = [];
    const s = createSemanticService({
      store: countedStore,
      log: silentLogger,
      now: () => 0,
      config,
      embed: embedder().embed,
      vectorWorker: () => {
        const ch = channelWorker(embedder().embed);
        channels.push(ch);
        return ch.worker;
      },
    });
    return { s, reads, channels, close: () => channels.forEach((c) => c.close()) };
  }

  it('with no embedding model (the default) creates no worker and reads no vectors, even though vectors are stored', async () => {
    const { s, reads, channels, close } = counted();
    s.configure(null);
    s.configure({ ...endpoint, model: '  ' }); // an empty model is off too
    const answer = await s.lane('turn', 'anything');
    await s.settled();
    expect(answer.info.state).toBe('off');
    expect(channels).toHaveLength(0);
    expect(reads).toEqual({ storedModel: 0, vectorsAfter: 0 });
    expect(s.started()).toBe(false);
    close();
  });

  it('a configured model starts one worker and the load once; the lane then searches in it', async () => {
    const { s, reads, channels, close } = counted();
    s.configure(endpoint);
    expect(channels).toHaveLength(1);
    await s.settled();
    expect(reads.storedModel).toBe(1);
    expect(reads.vectorsAfter).toBeGreaterThan(0);
    s.configure(null);
    s.configure({ ...endpoint, timeoutMs: 2000 });
    const answer = await s.lane('turn', questions[0] as string);
    expect(answer.info.state).toBe('on');
    expect(answer.info.timing?.where).toBe('worker');
    expect(channels).toHaveLength(1);
    expect(reads.storedModel).toBe(1);
    close();
  });

  it('vectors stored before any model is configured here (the fill told the jobs worker first) start the worker and the load', async () => {
    const { s, channels, close } = counted();
    s.stored('m', [{ kind: 'turn', id: 51, vector: toBytes(quantise(vector(51))) }], 0);
    expect(channels).toHaveLength(1);
    expect(s.started()).toBe(true);
    await s.settled();
    s.configure(endpoint);
    const answer = await s.lane('turn', 'whatever');
    expect(answer.info.state).toBe('on');
    expect(channels).toHaveLength(1);
    close();
  });
});
