/**
 * Meaning-based recall in the DB worker (issue 18; ARCHITECTURE §5 "semantic similarity is a port"):
 *
 *   page ── embeddings.configure (endpoint, embedding model; kept in memory here, never in SQLite) ──▶ this service
 *   jobs worker ── embeddings.pending → the endpoint's /v1/embeddings → embeddings.store ──▶ embeddings table
 *   recall.search / memory.retrieve ── lane(kind, question) ─▶ the question's vector (the configured endpoint,
 *        cached) · the model's vectors in memory (VectorIndex, loaded in the
 *        background from when a model is configured: vector-loader.ts) ─▶ nearest ids with their cosine
 *
 * In the browser the embedding and the search of a lane run in the vector-search worker, which holds the vectors
 * (the DB worker keeps only their ids: vector-loader.ts MirroredIndex; vector-search-client.ts /
 * vector-search-worker.ts), asked before `lane` returns so that they run beside the caller's lexical lanes on the
 * other core. Without a worker they run here on the same index code with the same results; when the worker fails,
 * the lane is degraded 'index-loading' while the vectors load here afresh, then runs here.
 *
 * When no embedding model is configured the lane is 'off'; when one is but it cannot be used — the endpoint is
 * unreachable, times out, does not know the model, or nothing is embedded yet — it is 'degraded': recall is
 * lexical, the reason is returned with the answer and logged (003 "向量索引故障时的语义召回降级"), and after a
 * failure the endpoint is not asked again for `semanticRetryMs`, so a dead server does not slow every question.
 */
import type { Logger } from '../../domain/log';
import type { RetrievalConfig } from '../../domain/recall/config';
import type { RecallQueryInfo } from '../../domain/recall/types';
import { quantise } from '../../domain/embeddings/quantise';
import { EngineError } from '../../domain/errors';
import type { EmbeddingKind, EmbeddingStore } from './embedding-store';
import type { PrepareState } from './types';
import { createVectorIndexes, MirroredIndex, type VectorIndexes } from './vector-loader';
import { createVectorSearchClient, indexKey, type VectorSearchClient, type VectorWorkerFactory } from './vector-search-client';

/** Where the embeddings come from: the user's OpenAI-compatible endpoint and its embedding model. */
export interface EmbeddingEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/** Embeds texts with an endpoint (default: the openai-compatible provider's POST /embeddings). */
export type EmbedFn = (endpoint: EmbeddingEndpoint, texts: string[], opts: { timeoutMs: number }) => Promise<number[][]>;

export type SemanticInfo = RecallQueryInfo['semantic'];

export interface SemanticLaneResult {
  hits: Map<number, number>;
  info: SemanticInfo;
}

const QUERY_CACHE = 64;


/** An endpoint on this device (loopback): the only kind a question is sent to before the person sends it. */
export function isLocalEndpoint(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function createSemanticService(deps: {
  store: EmbeddingStore;
  log: Logger;
  now: () => number;
  config: () => RetrievalConfig;
  embed: EmbedFn;
  loadSlice?: number;
  /** The vector-search worker (vector-search-client.ts); absent or failed: every search runs in this thread. */
  vectorWorker?: VectorWorkerFactory | null;
}) {
  let endpoint: EmbeddingEndpoint | null = null;
  let worker: VectorSearchClient | null = null;
  let indexes: VectorIndexes | null = null;
  /**
   * The search worker and the background load of the stored vectors start when meaning-based recall is first
   * needed — an embedding model configured, or vectors stored (the fill runs only when one is) — not when the
   * database opens: with the lane off (the default) nothing starts, and the database's cold start has both cores.
   */
  function startLane(): VectorIndexes {
    if (indexes) return indexes;
    if (deps.vectorWorker) {
      try {
        // The worker held the only copy of the vectors: they are loaded here again (searched here from then on).
        worker = createVectorSearchClient(deps.vectorWorker(), deps.log, { onFail: () => indexes?.unmirror() });
      } catch {
        deps.log.warn('recall.vector-worker-failed', { reason: 'spawn' });
      }
    }
    /** model → kind → its vectors in memory, loaded in the background (vector-loader.ts). */
    const loaded = createVectorIndexes({ store: deps.store, log: deps.log, mirror: worker, ...(deps.loadSlice ? { slice: deps.loadSlice } : {}) });
    indexes = loaded;
    loaded.warm();
    return loaded;
  }
  const queryVectors = new Map<string, Int8Array>();
  let failedUntil = 0;
  let lastFailure: string | null = null;

  const cacheKey = (model: string, text: string) => `${model}\u0000${text}`;
  function cachedVector(model: string, text: string): Int8Array | undefined {
    const key = cacheKey(model, text);
    const cached = queryVectors.get(key);
    if (cached) {
      queryVectors.delete(key);
      queryVectors.set(key, cached);
    }
    return cached;
  }
  function remember(model: string, text: string, q: Int8Array): void {
    queryVectors.set(cacheKey(model, text), q);
    if (queryVectors.size > QUERY_CACHE) queryVectors.delete(queryVectors.keys().next().value as string);
  }
  const embedTimeout = () => {
    const cfg = deps.config();
    return Math.min(cfg.semanticTimeoutMs, endpoint?.timeoutMs ?? cfg.semanticTimeoutMs);
  };

  /** Questions being embedded ahead of their recall (`prepare`): a recall asked meanwhile waits for the same answer. */
  const preparing = new Map<string, Promise<Int8Array>>();

  async function queryVector(model: string, text: string): Promise<Int8Array> {
    const cached = cachedVector(model, text);
    if (cached) return cached;
    const [vector] = await deps.embed(endpoint as EmbeddingEndpoint, [text], { timeoutMs: embedTimeout() });
    const q = quantise(vector ?? []);
    remember(model, text, q);
    return q;
  }

  /**
   * The question's vector from the cache, or the `prepare` still on its way for it (which resolves to undefined if it
   * fails). Synchronous unless one is on its way: `lane` must ask the search worker before its caller's lexical lanes.
   */
  function knownVector(model: string, text: string): Int8Array | Promise<Int8Array | undefined> | undefined {
    const cached = cachedVector(model, text);
    if (cached) return cached;
    const pending = preparing.get(cacheKey(model, text));
    return pending ? pending.catch(() => undefined) : undefined;
  }

  const failed = (reason: string) => {
    failedUntil = deps.now() + deps.config().semanticRetryMs;
    lastFailure = reason;
  };

  const degraded = (model: string, reason: string, coverage: number | null): SemanticLaneResult => {
    deps.log.warn('recall.semantic-degraded', { reason });
    return { hits: new Map(), info: { state: 'degraded', model, reason, coverage } };
  };

  return {
    /** The endpoint and embedding model in force (null or an empty model: meaning-based recall off). */
    configure(next: EmbeddingEndpoint | null): void {
      const changed = JSON.stringify(next) !== JSON.stringify(endpoint);
      endpoint = next && next.model.trim() ? { ...next, model: next.model.trim() } : null;
      if (endpoint) startLane();
      if (changed) {
        queryVectors.clear();
        failedUntil = 0;
        lastFailure = null;
      }
    },
    endpoint: (): EmbeddingEndpoint | null => endpoint,
    /** The last failure to reach the endpoint for a question (null: none since it was configured or last worked). */
    lastFailure: () => lastFailure,
    /** Vectors were stored (embeddings.store): the in-memory index follows without a reload. */
    stored(model: string, items: Parameters<VectorIndexes['stored']>[1], replacedModels: number): void {
      startLane().stored(model, items, replacedModels);
    },
    /** Resolves when the background loads of the indexes have finished (at once when nothing has started). */
    settled: (): Promise<void> => indexes?.settled() ?? Promise.resolve(),
    /** Whether the search worker and the vectors' load have started (not while meaning-based recall was never on). */
    started: (): boolean => indexes !== null,
    /** The database closes: the search worker ends. */
    dispose(): void {
      worker?.dispose();
      worker = null;
    },
    /**
     * A question while it is typed (`embeddings.prepare`): its vector is asked for now, so the recall that follows
     * finds it cached — or waits for this same request — instead of asking the endpoint after the person presses
     * Enter. Only for an endpoint on this device (`isLocalEndpoint`): text the person has not sent never goes to a
     * server elsewhere. Nothing is asked while meaning-based recall is off, failing, or the vector is already known.
     */
    async prepare(text: string): Promise<PrepareState> {
      const cfg = deps.config();
      if (!endpoint || !(cfg.semanticWeight > 0)) return 'off';
      if (!isLocalEndpoint(endpoint.baseUrl)) return 'remote';
      if (deps.now() < failedUntil) return 'degraded';
      const { model } = endpoint;
      const key = cacheKey(model, text);
      if (cachedVector(model, text)) return 'cached';
      const inFlight = preparing.get(key);
      if (inFlight) return inFlight.then(() => 'embedded' as const, () => 'degraded' as const);
      const pending = queryVector(model, text);
      preparing.set(key, pending);
      try {
        await pending;
        lastFailure = null;
        return 'embedded';
      } catch (err) {
        failed(err instanceof EngineError ? String(err.details?.reason ?? err.code) : 'unreachable');
        return 'degraded';
      } finally {
        preparing.delete(key);
      }
    },
    /** The nearest turns or memories to `text` by meaning, or why there are none. */
    async lane(kind: EmbeddingKind, text: string): Promise<SemanticLaneResult> {
      const cfg = deps.config();
      if (!endpoint || !(cfg.semanticWeight > 0)) return { hits: new Map(), info: { state: 'off', model: endpoint?.model ?? null, reason: null, coverage: null } };
      const { model } = endpoint;
      const loaded = startLane();
      const { index: idx, loading } = loaded.ready(model, kind);
      // Still loading from the database (it started when a model was configured or vectors stored): lexical until it is in memory.
      if (loading) return degraded(model, 'index-loading', null);
      if (!idx || idx.size === 0) return degraded(model, 'no-vectors', 0);
      if (deps.now() < failedUntil) return degraded(model, lastFailure ?? 'unreachable', null);
      const started = performance.now();
      const known = knownVector(model, text);
      const cached = known instanceof Promise ? await known : known;
      if (idx instanceof MirroredIndex) {
        // The search worker holds the vectors: asked now, before this call returns — the caller runs the lexical
        // lanes while it embeds the question (when not cached) and searches on the other core.
        const remote = worker?.alive()
          ? worker.query({
              key: indexKey(model, kind),
              ...(cached ? { vector: cached } : { embed: { endpoint, text, timeoutMs: embedTimeout() } }),
              k: cfg.semanticCandidates,
              floor: cfg.semanticFloor,
            })
          : null;
        const answer = remote ? await remote.catch(() => null) : null;
        if (!answer) {
          // The worker failed (logged once by the client): its copy is gone; the vectors load here meanwhile.
          loaded.unmirror();
          return degraded(model, 'index-loading', null);
        }
        if (!answer.ok) {
          failed(answer.reason ?? answer.code);
          return degraded(model, lastFailure as string, null);
        }
        if (!cached) remember(model, text, answer.vector);
        lastFailure = null;
        if (answer.vector.length !== idx.dims) return degraded(model, 'dimension-mismatch', null);
        const timing = { where: 'worker' as const, embedMs: answer.embedMs, searchMs: answer.searchMs, laneMs: performance.now() - started };
        return { hits: new Map(answer.hits.map((h) => [h.id, h.cosine])), info: { state: 'on', model, reason: null, coverage: null, timing } };
      }
      let q: Int8Array;
      const embedStart = cached ? null : performance.now();
      let embedMs: number | null = null;
      try {
        q = await queryVector(model, text);
        if (embedStart !== null) embedMs = performance.now() - embedStart;
      } catch (err) {
        failed(err instanceof EngineError ? String(err.details?.reason ?? err.code) : 'unreachable');
        return degraded(model, lastFailure as string, null);
      }
      lastFailure = null;
      if (q.length !== idx.dims) return degraded(model, 'dimension-mismatch', null);
      const searchStart = performance.now();
      const found = idx.search(q, { k: cfg.semanticCandidates, floor: cfg.semanticFloor });
      const done = performance.now();
      const timing = { where: 'here' as const, embedMs, searchMs: done - searchStart, laneMs: done - started };
      return { hits: new Map(found.map((h) => [h.id, h.cosine])), info: { state: 'on', model, reason: null, coverage: null, timing } };
    },
  };
}

export type SemanticService = ReturnType<typeof createSemanticService>;

/** A stored vector's bytes as signed components (a view, no copy). */
export function toInt8(bytes: Uint8Array): Int8Array {
  return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The int8 vector as the bytes SQLite stores. */
export function toBytes(v: Int8Array): Uint8Array {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}
