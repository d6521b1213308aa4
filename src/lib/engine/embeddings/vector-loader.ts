/**
 * The in-memory vector indexes of the DB worker and their background load (issue 18).
 *
 *   a model configured ─▶ warm(stored model) ─▶ per kind: slice (≤ LOAD_SLICE rows by primary key) ─ yield ─ slice …
 *   embeddings.store ─▶ stored(items) ─▶ set into the index, loaded or still loading (rows behind the load's cursor
 *                                        are set here, rows ahead of it are read by the load: none is missed)
 *   recall ─▶ ready(model, kind) ─▶ the index, or null while it loads (the lane is then degraded 'index-loading')
 *
 * Loading 100,000 vectors at once took ~8 s of the first recall with the lane; in slices that yield, foreground calls
 * wait at most one slice. A recall or a store while the load is under way reads one slice itself, so a small store
 * (one slice holds everything) is ready at its first use.
 *
 * With a mirror (the vector-search worker, vector-search-client.ts) every row goes to it and the index here keeps
 * only the ids (MirroredIndex): the vectors are in memory once, in the worker. Should the worker fail, `unmirror`
 * forgets every index and loads the stored model's vectors here afresh (VectorIndex, searched in this thread).
 */
import { VectorIndex } from '../../domain/embeddings/vector-index';
import type { Logger } from '../../domain/log';
import type { EmbeddingKind, EmbeddingStore } from './embedding-store';
import { indexKey } from './vector-search-client';

/** Rows read per slice: ~0.8 MB of blobs at 384 dims, a few ms of one read. */
export const LOAD_SLICE = 2048;

/**
 * What the DB worker keeps of an index while the vector-search worker holds the vectors: their size and which ids
 * are in (the lane's 'no-vectors' check), not the vectors — the worker's copy is the only one (~45 MB less at
 * 100,000 × 384). Should the worker fail, the indexes are loaded here afresh (`unmirror`).
 */
export class MirroredIndex {
  readonly dims: number;
  readonly #ids = new Set<number>();
  constructor(dims: number) {
    this.dims = dims;
  }
  get size(): number {
    return this.#ids.size;
  }
  has(id: number): boolean {
    return this.#ids.has(id);
  }
  set(id: number, vector: Int8Array): void {
    if (vector.length !== this.dims) throw new Error(`vector of ${vector.length} dimensions in an index of ${this.dims}`);
    this.#ids.add(id);
  }
}

interface Entry {
  index: VectorIndex | MirroredIndex | null;
  /** The largest id read so far. */
  cursor: number;
  ready: boolean;
  running: Promise<void> | null;
}

const toInt8 = (bytes: Uint8Array) => new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Told of every row an index takes in and every index dropped (the vector-search worker's mirror, vector-search-client.ts). */
export interface IndexMirror {
  alive(): boolean;
  reset(key: string): void;
  set(key: string, dims: number, id: number, vector: Int8Array): void;
}

export function createVectorIndexes(deps: {
  store: Pick<EmbeddingStore, 'vectorsAfter' | 'storedModel'>;
  log: Logger;
  slice?: number;
  yieldNow?: () => Promise<void>;
  mirror?: IndexMirror | null;
}) {
  let mirror = deps.mirror ?? null;
  const slice = deps.slice ?? LOAD_SLICE;
  const yieldNow = deps.yieldNow ?? nextTurn;
  /** model → kind → entry */
  const models = new Map<string, Map<EmbeddingKind, Entry>>();
  const key = (model: string) => {
    let byKind = models.get(model);
    if (!byKind) models.set(model, (byKind = new Map()));
    return byKind;
  };

  /** Reads one slice into the entry; false when the model is gone or its vectors changed size (the entry is dropped). */
  function readSlice(model: string, kind: EmbeddingKind, entry: Entry): boolean {
    const got = deps.store.vectorsAfter(model, kind, entry.cursor, slice);
    if (!got) return false;
    if (entry.index && entry.index.dims !== got.dims) return false;
    if (!entry.index) {
      entry.index = mirror ? new MirroredIndex(got.dims) : new VectorIndex(got.dims, Math.max(1024, got.rows.length));
      mirror?.reset(indexKey(model, kind));
    }
    for (const r of got.rows) {
      if (r.vector.length === got.dims) setRow(model, kind, entry.index, r.id, toInt8(r.vector));
      entry.cursor = r.id;
    }
    if (got.rows.length < slice) entry.ready = true;
    return true;
  }

  function setRow(model: string, kind: EmbeddingKind, index: VectorIndex | MirroredIndex, id: number, vector: Int8Array): void {
    index.set(id, vector);
    mirror?.set(indexKey(model, kind), index.dims, id, vector);
  }

  function drop(model: string, kind: EmbeddingKind, entry: Entry): void {
    const byKind = models.get(model);
    if (byKind?.get(kind) === entry) {
      byKind.delete(kind);
      mirror?.reset(indexKey(model, kind));
    }
  }

  /** The rest of the load, a slice per turn of the event loop, until done or the entry is replaced. */
  function run(model: string, kind: EmbeddingKind, entry: Entry): void {
    if (entry.ready || entry.running) return;
    entry.running = (async () => {
      try {
        while (!entry.ready) {
          await yieldNow();
          if (models.get(model)?.get(kind) !== entry) return;
          if (!readSlice(model, kind, entry)) return drop(model, kind, entry);
        }
      } catch (err) {
        // The database closed under the load (or a read failed): the next use starts again.
        deps.log.warn('recall.vector-load-failed', { kind, error: err instanceof Error ? err.name : 'unknown' });
        drop(model, kind, entry);
      } finally {
        entry.running = null;
      }
    })();
  }

  /** Starts (or continues) loading a model's vectors of one kind; `firstNow` reads the first slice before returning. */
  function start(model: string, kind: EmbeddingKind, firstNow: boolean): Entry {
    const byKind = key(model);
    let entry = byKind.get(kind);
    if (!entry) {
      entry = { index: null, cursor: 0, ready: false, running: null };
      byKind.set(kind, entry);
      if (firstNow && !readSlice(model, kind, entry)) {
        drop(model, kind, entry);
        return entry;
      }
    }
    run(model, kind, entry);
    return entry;
  }

  function warm(): void {
    let model: string | null = null;
    try {
      model = deps.store.storedModel();
    } catch {
      return; // no embeddings table yet (a database being migrated): nothing to load
    }
    if (model) for (const kind of ['turn', 'memory'] as const) start(model, kind, false);
  }

  return {
    /** Meaning-based recall was turned on (semantic-service.ts): load the stored model's vectors in the background (nothing is read before this returns). */
    warm,
    /**
     * The search worker is gone (it failed): from now on the vectors are held and searched here. Every index is
     * forgotten and the stored model's load starts again (the lane answers 'index-loading' until it is in).
     */
    unmirror(this: void): void {
      if (!mirror) return;
      mirror = null;
      models.clear();
      warm();
    },
    /**
     * The model's index of `kind` when fully loaded — a MirroredIndex (ids only) while the search worker holds the
     * vectors, a VectorIndex when they are searched here; otherwise starts its load and returns null ('index-loading').
     */
    ready(model: string, kind: EmbeddingKind): { index: VectorIndex | MirroredIndex | null; loading: boolean } {
      const known = models.get(model)?.get(kind);
      // Asked while loading: this call reads one slice itself (a small store, one slice, is then ready at once).
      if (known && !known.ready && !readSlice(model, kind, known)) drop(model, kind, known);
      const entry = start(model, kind, true);
      if (models.get(model)?.get(kind) !== entry) return { index: null, loading: false }; // no vectors of this model
      return entry.ready ? { index: entry.index, loading: false } : { index: null, loading: true };
    },
    /** Resolves when every load under way has finished (tests, and the benchmark's wait before measuring). */
    async settled(): Promise<void> {
      for (;;) {
        const running = [...models.values()].flatMap((byKind) => [...byKind.values()]).flatMap((e) => (e.running ? [e.running] : []));
        if (running.length === 0) return;
        await Promise.all(running);
      }
    },
    /** Vectors were stored: the index follows, whether loaded or still loading; another model's indexes are dropped. */
    stored(model: string, items: readonly { kind: EmbeddingKind; id: number; vector: Uint8Array }[], replacedModels: number): void {
      if (replacedModels > 0)
        for (const name of [...models.keys()])
          if (name !== model) {
            models.delete(name);
            for (const kind of ['turn', 'memory'] as const) mirror?.reset(indexKey(name, kind));
          }
      for (const item of items) {
        let entry = models.get(model)?.get(item.kind);
        if (entry?.index && entry.index.dims !== item.vector.length) {
          drop(model, item.kind, entry); // a new size: the store replaced the old vectors; load afresh
          entry = undefined;
        }
        // Nothing of this model in memory: load it (the first slice now, so a small store is ready at once).
        entry ??= start(model, item.kind, true);
        if (entry.index?.dims === item.vector.length) setRow(model, item.kind, entry.index, item.id, toInt8(item.vector));
      }
    },
  };
}

export type VectorIndexes = ReturnType<typeof createVectorIndexes>;
