/**
 * The vectors of one embedding model and one kind (turns or memories) in memory, for nearest-neighbour search
 * (issue 18). Rows live in one growing Int8Array (row-major) with their ids and lengths beside them, so a search
 * is a tight loop over contiguous bytes and adding a vector is amortised O(dims).
 *
 * Search is exact: every stored vector is scored (int8 dot product ÷ the two lengths) and the `k` best kept with a
 * small binary heap. Exact keeps what is found independent of how the index was filled, and it costs ~dims
 * multiply-adds per row (docs/design/06-retrieval.md "Meaning-based recall" has its measured cost at scale).
 */
export interface VectorHit {
  id: number;
  cosine: number;
}

export class VectorIndex {
  readonly dims: number;
  #data: Int8Array;
  #ids: Float64Array;
  #norms: Float32Array;
  #size = 0;
  /** id → row */
  #rows = new Map<number, number>();

  constructor(dims: number, capacity = 1024) {
    this.dims = dims;
    this.#data = new Int8Array(dims * capacity);
    this.#ids = new Float64Array(capacity);
    this.#norms = new Float32Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  has(id: number): boolean {
    return this.#rows.has(id);
  }

  /** Adds or replaces the vector of `id` (int8, `dims` long). */
  set(id: number, vector: Int8Array): void {
    if (vector.length !== this.dims) throw new Error(`vector of ${vector.length} dimensions in an index of ${this.dims}`);
    let row = this.#rows.get(id);
    if (row === undefined) {
      if (this.#size === this.#ids.length) this.#grow();
      row = this.#size++;
      this.#rows.set(id, row);
      this.#ids[row] = id;
    }
    this.#data.set(vector, row * this.dims);
    let n = 0;
    for (let i = 0; i < this.dims; i++) n += (vector[i] as number) * (vector[i] as number);
    this.#norms[row] = Math.sqrt(n);
  }

  /** Removes `id` (the last row moves into its place). */
  delete(id: number): void {
    const row = this.#rows.get(id);
    if (row === undefined) return;
    const last = --this.#size;
    this.#rows.delete(id);
    if (row !== last) {
      const lastId = this.#ids[last] as number;
      this.#data.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.#ids[row] = lastId;
      this.#norms[row] = this.#norms[last] as number;
      this.#rows.set(lastId, row);
    }
  }

  /** The `k` stored vectors most similar to `query` with cosine ≥ floor, best first; `allow` filters ids. */
  search(query: Int8Array, opts: { k: number; floor: number; allow?: (id: number) => boolean }): VectorHit[] {
    const { dims } = this;
    if (query.length !== dims || opts.k <= 0) return [];
    let qn = 0;
    for (let i = 0; i < dims; i++) qn += (query[i] as number) * (query[i] as number);
    qn = Math.sqrt(qn);
    if (!(qn > 0)) return [];
    const q = new Int32Array(query);
    const data = this.#data;
    const heap: VectorHit[] = [];
    for (let row = 0; row < this.#size; row++) {
      const norm = this.#norms[row] as number;
      if (!(norm > 0)) continue;
      let a = 0;
      let b = 0;
      let o = row * dims;
      let j = 0;
      for (; j + 1 < dims; j += 2, o += 2) {
        a += (data[o] as number) * (q[j] as number);
        b += (data[o + 1] as number) * (q[j + 1] as number);
      }
      if (j < dims) a += (data[o] as number) * (q[j] as number);
      const cosine = (a + b) / (norm * qn);
      if (cosine < opts.floor || (heap.length === opts.k && cosine <= (heap[0] as VectorHit).cosine)) continue;
      const id = this.#ids[row] as number;
      if (opts.allow && !opts.allow(id)) continue;
      if (heap.length < opts.k) heapPush(heap, { id, cosine });
      else heapReplaceTop(heap, { id, cosine });
    }
    return heap.sort((x, y) => y.cosine - x.cosine || y.id - x.id);
  }

  #grow(): void {
    const capacity = this.#ids.length * 2;
    const data = new Int8Array(this.dims * capacity);
    data.set(this.#data);
    this.#data = data;
    const ids = new Float64Array(capacity);
    ids.set(this.#ids);
    this.#ids = ids;
    const norms = new Float32Array(capacity);
    norms.set(this.#norms);
    this.#norms = norms;
  }
}

/** A min-heap on cosine: the root is the worst of the best k kept so far. */
function heapPush(heap: VectorHit[], hit: VectorHit): void {
  heap.push(hit);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if ((heap[parent] as VectorHit).cosine <= hit.cosine) break;
    heap[i] = heap[parent] as VectorHit;
    i = parent;
  }
  heap[i] = hit;
}

function heapReplaceTop(heap: VectorHit[], hit: VectorHit): void {
  let i = 0;
  const n = heap.length;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const child = r < n && (heap[r] as VectorHit).cosine < (heap[l] as VectorHit).cosine ? r : l;
    if ((heap[child] as VectorHit).cosine >= hit.cosine) break;
    heap[i] = heap[child] as VectorHit;
    i = child;
  }
  heap[i] = hit;
}
