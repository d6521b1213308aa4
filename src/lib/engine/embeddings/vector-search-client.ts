/**
 * The DB worker's side of the vector-search worker (issue 18; the worker's side and the protocol:
 * vector-search-worker.ts). The in-memory indexes (vector-loader.ts) tell it every vector they take in and every
 * index they drop; it forwards them in batches (one message per run of rows of one index, its buffers transferred,
 * not copied), so the worker's mirror holds the same rows in the same order. A recall posts its question before the
 * lexical lanes start and awaits the hits after them: the search runs on the other core meanwhile.
 *
 * While the worker is alive it holds the only copy of the vectors (the DB worker keeps their ids: MirroredIndex).
 * When there is no worker (Node: the CLI host, tests) the DB worker holds and searches them itself; when it fails
 * (an `error` event, a message it could not read) `query` returns null or rejects, `onFail` is told, and the DB
 * worker loads the vectors afresh and searches in-process from then on.
 */
import type { Logger } from '../../domain/log';
import type { VectorSearchAnswer, VectorSearchRequest } from './vector-search-worker';

/** A Worker, or a MessagePort in tests. */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: MessageEvent) => void): void;
  terminate?(): void;
  close?(): void;
}

/** Where the vector-search worker comes from (workers/db.worker.ts registers it; absent: in-process only). */
export type VectorWorkerFactory = () => WorkerLike;

let registered: VectorWorkerFactory | null = null;
/** Called once by the DB worker's entry (workers/db.worker.ts): from then on each open database gets a search worker. */
export function provideVectorWorker(factory: VectorWorkerFactory | null): void {
  registered = factory;
}
export function registeredVectorWorker(): VectorWorkerFactory | null {
  return registered;
}

type Query = Omit<Extract<VectorSearchRequest, { t: 'query' }>, 't' | 'n'>;

export function indexKey(model: string, kind: string): string {
  return `${model}\u0000${kind}`;
}

/** `onFail`: the worker failed (not closed by `dispose`) — the caller takes the searches back (vector-loader.ts unmirror). */
export function createVectorSearchClient(worker: WorkerLike, log: Logger, opts: { onFail?: () => void } = {}) {
  let dead = false;
  let next = 1;
  const waiting = new Map<number, { resolve: (a: VectorSearchAnswer) => void; reject: (e: Error) => void }>();
  /** Rows set since the last message, all of one index. */
  let batch: { key: string; dims: number; ids: number[]; codes: Int8Array[] } | null = null;

  const fail = (why: string, quiet = false) => {
    if (dead) return;
    dead = true;
    batch = null;
    if (!quiet) log.warn('recall.vector-worker-failed', { reason: why });
    for (const w of waiting.values()) w.reject(new Error(`vector worker: ${why}`));
    waiting.clear();
    worker.terminate?.();
    if (!quiet) opts.onFail?.();
  };

  const post = (req: VectorSearchRequest, transfer?: Transferable[]) => {
    try {
      worker.postMessage(req, transfer);
    } catch {
      fail('post');
    }
  };

  function flush(): void {
    const b = batch;
    batch = null;
    if (!b || dead) return;
    const ids = Float64Array.from(b.ids);
    const codes = new Int8Array(b.ids.length * b.dims);
    b.codes.forEach((c, i) => codes.set(c, i * b.dims));
    post({ t: 'set', key: b.key, dims: b.dims, ids, codes }, [ids.buffer, codes.buffer]);
  }

  worker.addEventListener('message', (event: MessageEvent) => {
    const a = event.data as VectorSearchAnswer;
    const w = waiting.get(a.n);
    if (!w) return;
    waiting.delete(a.n);
    w.resolve(a);
  });
  worker.addEventListener('error', () => fail('error'));
  worker.addEventListener('messageerror', () => fail('messageerror'));

  return {
    alive: () => !dead,
    /** An index was dropped or is being loaded afresh: the mirror's copy goes too. */
    reset(key: string): void {
      if (dead) return;
      flush();
      post({ t: 'reset', key });
    },
    /** A row was set in an index (the vector is copied: the caller's buffer may be reused). */
    set(key: string, dims: number, id: number, vector: Int8Array): void {
      if (dead) return;
      if (batch && (batch.key !== key || batch.dims !== dims)) flush();
      if (!batch) {
        batch = { key, dims, ids: [], codes: [] };
        // Rows set in one synchronous run (a slice of the load, one embeddings.store) go as one message.
        queueMicrotask(flush);
      }
      batch.ids.push(id);
      batch.codes.push(vector.slice());
    },
    /** Posts the search now (after every row set so far); null when the worker is gone. */
    query(q: Query): Promise<VectorSearchAnswer> | null {
      if (dead) return null;
      flush();
      const n = next++;
      const answer = new Promise<VectorSearchAnswer>((resolve, reject) => waiting.set(n, { resolve, reject }));
      post({ t: 'query', n, ...q });
      return answer;
    },
    dispose(): void {
      fail('closed', true);
    },
  };
}

export type VectorSearchClient = ReturnType<typeof createVectorSearchClient>;
