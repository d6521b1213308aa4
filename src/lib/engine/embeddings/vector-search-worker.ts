/**
 * The vector-search worker's side (issue 18): a mirror of the DB worker's in-memory vector indexes that answers a
 * recall's nearest-neighbour search on the other core while the DB worker runs the lexical lanes.
 *
 *   DB worker (vector-search-client.ts)                    this worker (workers/vectors.worker.ts)
 *   ── reset(key) / set(key, ids, codes: transferred) ──▶  VectorIndex per key, the same rows in the same order
 *   ── query(n, key, vector | text to embed, k, floor) ──▶  the question's vector (the configured endpoint when not
 *   ◀── answer(n, hits, vector) | answer(n, error) ──────    cached) → VectorIndex.search → the hits
 *
 * One port, messages in order: a search sees every vector set before it was asked. The index code is the DB
 * worker's own (domain/embeddings/vector-index.ts) fed the same rows in the same order, so the hits are the same.
 * Pure message handling over a port: the Web Worker entry and the Node tests (a MessageChannel) serve it the same way.
 */
import { quantise } from '../../domain/embeddings/quantise';
import { VectorIndex, type VectorHit } from '../../domain/embeddings/vector-index';
import { EngineError } from '../../domain/errors';
import type { EmbedFn, EmbeddingEndpoint } from './semantic-service';

export type VectorSearchRequest =
  | { t: 'reset'; key: string }
  | { t: 'set'; key: string; dims: number; ids: Float64Array; codes: Int8Array }
  | {
      t: 'query';
      n: number;
      key: string;
      /** The question's int8 vector when the DB worker has it cached; otherwise `embed` says how to get it. */
      vector?: Int8Array;
      embed?: { endpoint: EmbeddingEndpoint; text: string; timeoutMs: number };
      k: number;
      floor: number;
    };

export type VectorSearchAnswer =
  /** `embedMs`: the endpoint's round trip for the question (null: it came cached); `searchMs`: the index search. */
  | { n: number; ok: true; hits: VectorHit[]; vector: Int8Array; dims: number | null; embedMs: number | null; searchMs: number }
  /** The endpoint failed (code and reason as the DB worker's own embedding call would report them). */
  | { n: number; ok: false; code: string; reason: string | null };

/** What the worker listens and answers on (a Worker's global scope, or a MessagePort in tests). */
export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

export function serveVectorSearch(port: PortLike, deps: { embed: EmbedFn }): void {
  const indexes = new Map<string, VectorIndex>();
  const answer = (a: VectorSearchAnswer) => port.postMessage(a);

  async function query(req: Extract<VectorSearchRequest, { t: 'query' }>): Promise<void> {
    let vector = req.vector;
    let embedMs: number | null = null;
    if (!vector) {
      const e = req.embed as NonNullable<typeof req.embed>;
      try {
        const t = performance.now();
        const [v] = await deps.embed(e.endpoint, [e.text], { timeoutMs: e.timeoutMs });
        vector = quantise(v ?? []);
        embedMs = performance.now() - t;
      } catch (err) {
        answer(err instanceof EngineError ? { n: req.n, ok: false, code: err.code, reason: typeof err.details?.reason === 'string' ? err.details.reason : null } : { n: req.n, ok: false, code: 'unreachable', reason: null });
        return;
      }
    }
    // Looked up after the embedding arrived: vectors set meanwhile are in.
    const index = indexes.get(req.key);
    const t = performance.now();
    const hits = index && vector.length === index.dims ? index.search(vector, { k: req.k, floor: req.floor }) : [];
    answer({ n: req.n, ok: true, hits, vector, dims: index?.dims ?? null, embedMs, searchMs: performance.now() - t });
  }

  port.addEventListener('message', (event: MessageEvent) => {
    const req = event.data as VectorSearchRequest;
    if (req.t === 'reset') indexes.delete(req.key);
    else if (req.t === 'set') {
      let index = indexes.get(req.key);
      if (!index || index.dims !== req.dims) indexes.set(req.key, (index = new VectorIndex(req.dims, Math.max(1024, req.ids.length))));
      for (let i = 0; i < req.ids.length; i++) index.set(req.ids[i] as number, req.codes.subarray(i * req.dims, (i + 1) * req.dims));
    } else if (req.t === 'query') void query(req);
  });
}
