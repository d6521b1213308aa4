/**
 * The vectors of one embedding model and one kind (turns or memories) in memory, for nearest-neighbour search
 * (issue 18). Rows live in one growing Int8Array (row-major) with their ids and lengths beside them, so a search
 * is a tight loop over contiguous bytes and adding a vector is amortised O(dims).
 *
 * Search has two stages once the index is larger than a few shortlists (docs/design/06-retrieval.md "Vector search
 * at scale"):
 *   1. sign bits — each vector's signs packed 8 to a byte (48 B at 384 dims); a row is scored against the int8
 *      question by Σ q[i] over its positive dimensions, one 256-entry table look-up per byte of bits (asymmetric:
 *      the question keeps its magnitudes, which ranks far better than Hamming distance between two sign patterns);
 *      a histogram of the scores gives the cut that keeps the `shortlist` best without sorting. In a large index
 *      the first half of each row's bits screens every row and only the best `screen` rows are scored in full;
 *   2. exact — int8 dot product ÷ the two lengths on the shortlist only, the `k` best kept with a small binary heap.
 * Stage 1 costs dims/8 look-ups per row instead of dims multiply-adds. With the default shortlist (≥ 40 × k, ≥ 1000)
 * the exact top k is almost always inside it (vector-index.test.ts and docs/design/06-retrieval.md have the
 * measured agreement). Small indexes, and a search whose `allow` rejected shortlisted rows and found fewer than k,
 * are scored exactly.
 *
 * Exact scoring runs in WebAssembly SIMD (dot-kernel.ts) where the engine has it and dims is a multiple of 16 (the
 * rows then live in the kernel's memory); the JS loop otherwise. Same integer sums, same hits.
 *
 * Memory per vector: dims bytes (int8) + dims/8 bytes (sign bits) + 8 (id) + 4 (length) + 4 (stage-1 scratch)
 * + the id → row Map entry; at 384 dims 448 B + the Map's ≈ 30–40 B.
 */
import { dotKernel, instantiateDots, type DotsFn } from './dot-kernel';

export interface VectorHit {
  id: number;
  cosine: number;
}

/** Exact scoring below this many shortlists' worth of rows (stage 1 would save little). */
const EXACT_BELOW_SHORTLISTS = 4;
/** Stage-1 scores are bucketed by 2^SHIFT for the cut (a bucket is a sliver of one q component's range). */
const SHIFT = 3;
/** Two-pass stage 1 (see #shortlist): the first pass keeps this many shortlists' worth of rows. */
const SCREEN_PER_SHORTLIST = 10;
/** Byte order of this machine's typed arrays (every browser and Node target is little-endian; checked all the same). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const PAGE = 65536;

/** The rows in a WebAssembly memory the dot kernel reads: [question i16 × dims][rows][scratch]. */
interface Kernel {
  memory: WebAssembly.Memory;
  dots: DotsFn;
  /** Byte offset of the rows (after the question, 16-aligned). */
  dataAt: number;
}

export class VectorIndex {
  readonly dims: number;
  /** Bytes of sign bits per row (dims / 8, rounded up). */
  readonly signBytes: number;
  #data: Int8Array;
  #bits: Uint8Array;
  /** Stage-1 score per row (scratch, reused by every search). */
  #dist: Int32Array;
  /** Stage-1 table and histogram (scratch, reused by every search). */
  #lut = new Int32Array(0);
  #hist = new Uint32Array(0);
  #ids: Float64Array;
  #norms: Float32Array;
  #size = 0;
  /** id → row */
  #rows = new Map<number, number>();
  #kernel: Kernel | null = null;

  /** `scoring`: 'js' keeps exact scoring in JS even where the WebAssembly kernel runs (tests and benches compare). */
  constructor(dims: number, capacity = 1024, scoring: 'auto' | 'js' = 'auto') {
    this.dims = dims;
    this.signBytes = Math.ceil(dims / 8);
    const module = scoring === 'auto' && dims > 0 && dims % 16 === 0 ? dotKernel() : null;
    if (module) {
      const dataAt = Math.ceil((dims * 2) / 16) * 16;
      const memory = new WebAssembly.Memory({ initial: Math.ceil((dataAt + dims * capacity) / PAGE) });
      this.#kernel = { memory, dots: instantiateDots(module, memory), dataAt };
      this.#data = new Int8Array(memory.buffer, dataAt, dims * capacity);
    } else this.#data = new Int8Array(dims * capacity);
    this.#bits = new Uint8Array(this.signBytes * capacity);
    this.#dist = new Int32Array(capacity);
    this.#ids = new Float64Array(capacity);
    this.#norms = new Float32Array(capacity);
  }

  /** Whether exact scoring runs in the WebAssembly kernel. */
  get simd(): boolean {
    return this.#kernel !== null;
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
    signBits(vector, this.#bits, row * this.signBytes);
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
      this.#bits.copyWithin(row * this.signBytes, last * this.signBytes, (last + 1) * this.signBytes);
      this.#ids[row] = lastId;
      this.#norms[row] = this.#norms[last] as number;
      this.#rows.set(lastId, row);
    }
  }

  /**
   * The `k` stored vectors most similar to `query` with cosine ≥ floor, best first; `allow` filters ids.
   * `shortlist`: how many rows the sign-bit stage passes to exact scoring (default max(40k, 1000)); `exact` scores
   * every row (the reference the approximate search is measured against); `screen`: how many rows the first half of
   * the sign words pass to the second in a large index (default 10 × shortlist; ≥ the index size: one pass).
   */
  search(query: Int8Array, opts: { k: number; floor: number; allow?: (id: number) => boolean; shortlist?: number; screen?: number; exact?: boolean }): VectorHit[] {
    const { dims } = this;
    if (query.length !== dims || opts.k <= 0) return [];
    let qn = 0;
    for (let i = 0; i < dims; i++) qn += (query[i] as number) * (query[i] as number);
    qn = Math.sqrt(qn);
    if (!(qn > 0)) return [];
    const q = new Int32Array(query);
    const shortlist = Math.max(opts.k, Math.floor(opts.shortlist ?? Math.max(40 * opts.k, 1000)));
    const heap: VectorHit[] = [];
    if (opts.exact || this.#size <= EXACT_BELOW_SHORTLISTS * shortlist) this.#scoreAll(query, q, qn, opts, heap);
    else {
      // `allow` threw out part of the shortlist and too few are left: the rest of the index may hold allowed ones.
      if (this.#scoreRows(this.#shortlist(query, shortlist, opts.screen), query, q, qn, opts, heap) > 0 && heap.length < opts.k) {
        heap.length = 0;
        this.#scoreAll(query, q, qn, opts, heap);
      }
    }
    return heap.sort((x, y) => y.cosine - x.cosine || y.id - x.id);
  }

  #scoreAll(query: Int8Array, q: Int32Array, qn: number, opts: ScoreOpts, heap: VectorHit[]): void {
    if (!this.#kernel) {
      for (let row = 0; row < this.#size; row++) this.#consider(row, this.#dot(row, q), qn, opts, heap);
      return;
    }
    const rows = new Int32Array(this.#size);
    for (let row = 0; row < rows.length; row++) rows[row] = row;
    this.#scoreRows(rows, query, q, qn, opts, heap);
  }

  /** Scores `rows` into the heap; how many `allow` rejected. */
  #scoreRows(rows: Int32Array, query: Int8Array, q: Int32Array, qn: number, opts: ScoreOpts, heap: VectorHit[]): number {
    let rejected = 0;
    const kernel = this.#kernel;
    if (!kernel) {
      for (const row of rows) if (this.#consider(row, this.#dot(row, q), qn, opts, heap) === 'rejected') rejected++;
      return rejected;
    }
    const { dims } = this;
    const { dataAt } = kernel;
    const dataBytes = this.#data.length;
    const rowsAt = dataAt + dataBytes;
    const outAt = rowsAt + rows.length * 4;
    const need = outAt + rows.length * 4;
    if (kernel.memory.buffer.byteLength < need) {
      // Growing detaches every view of the memory (their length reads 0 after): the rows' view is made anew.
      kernel.memory.grow(Math.ceil((need - kernel.memory.buffer.byteLength) / PAGE));
      this.#data = new Int8Array(kernel.memory.buffer, dataAt, dataBytes);
    }
    const buffer = kernel.memory.buffer;
    new Int16Array(buffer, 0, dims).set(query);
    new Int32Array(buffer, rowsAt, rows.length).set(rows);
    kernel.dots(0, dataAt, rowsAt, rows.length, dims, outAt);
    const dots = new Int32Array(buffer, outAt, rows.length);
    for (let i = 0; i < rows.length; i++) if (this.#consider(rows[i] as number, dots[i] as number, qn, opts, heap) === 'rejected') rejected++;
    return rejected;
  }

  /**
   * Rows whose sign bits best match the query: each row scored Σ q[i] over the dimensions where its sign is
   * positive (= half the query's dot product with the row's ±1 signs, less a constant) by a 256-entry table per
   * byte of bits, so a row costs dims/8 table look-ups. The `n` best (ties at the cut by row order).
   *
   * A large index (more than 2 screens) whose rows are whole 32-bit words is scored in two passes: the first half
   * of every row's words, cut to the `screen` best by that half-score (default SCREEN_PER_SHORTLIST × n), then the
   * other half of those rows only, cut to the n best by the whole score. The second pass sees every row the
   * first keeps with its whole score, so it loses only rows whose first half ranks outside the screen: none of the
   * exact top 50 on clustered vectors, 0.02–0.03 of it on uniformly random ones, the worst case (vector-index.test.ts,
   * bench/speed/vector-search-ab.ts); stage 1 then costs about 0.6 of one full pass.
   */
  #shortlist(query: Int8Array, n: number, screenOpt?: number): Int32Array {
    const bytes = this.signBytes;
    const lut = this.#lut.length === bytes << 8 ? this.#lut.fill(0) : (this.#lut = new Int32Array(bytes << 8));
    for (let b = 0; b < bytes; b++) {
      const base = b << 8;
      for (let bit = 0; bit < 8; bit++) {
        const qv = (query[(b << 3) + bit] as number | undefined) ?? 0;
        const step = 1 << bit;
        // Entries with this bit set get q[bit] added: walk the table in runs of `step`.
        for (let m = step; m < 256; m += step << 1) for (let e = m; e < m + step; e++) lut[base + e] = (lut[base + e] as number) + qv;
      }
    }
    const bits = this.#bits;
    const scores = this.#dist;
    const size = this.#size;
    // Scores lie in ±127·dims; buckets of 2^SHIFT keep the histogram small.
    const offset = 127 * this.dims;
    const histLength = ((2 * offset) >> SHIFT) + 1;
    const hist = this.#hist.length === histLength ? this.#hist.fill(0) : (this.#hist = new Uint32Array(histLength));
    // Rows of whole 32-bit words (dims a multiple of 32: 384, 768, 1024) are read a word at a time, its 4 bytes
    // looked up from it — half the time of a read per byte (measured at 100,000 × 384 in Node); same sums.
    const wordsPerRow = bytes & 3 || !LITTLE_ENDIAN ? 0 : bytes >> 2;
    if (!wordsPerRow) {
      for (let row = 0; row < size; row++) {
        let sc = 0;
        for (let b = 0, o = row * bytes; b < bytes; b++, o++) sc += lut[(b << 8) | (bits[o] as number)] as number;
        scores[row] = sc;
        const bucket = (offset - sc) >> SHIFT;
        hist[bucket] = (hist[bucket] as number) + 1;
      }
      return select(scores, null, size, hist, n, offset);
    }
    const words = new Uint32Array(bits.buffer, bits.byteOffset, bits.length >> 2);
    const screen = Math.max(n, Math.floor(screenOpt ?? SCREEN_PER_SHORTLIST * n));
    if (wordsPerRow < 2 || size <= 2 * screen) {
      scoreWords(words, lut, scores, hist, null, size, wordsPerRow, 0, wordsPerRow, offset);
      return select(scores, null, size, hist, n, offset);
    }
    const half = wordsPerRow >> 1;
    scoreWords(words, lut, scores, hist, null, size, wordsPerRow, 0, half, offset);
    const screened = select(scores, null, size, hist, screen, offset);
    hist.fill(0);
    scoreWords(words, lut, scores, hist, screened, screened.length, wordsPerRow, half, wordsPerRow, offset);
    return select(scores, screened, screened.length, hist, n, offset);
  }

  /** The int8 dot product of row `row` with the question (the JS path). */
  #dot(row: number, q: Int32Array): number {
    const { dims } = this;
    const data = this.#data;
    let a = 0;
    let b = 0;
    let o = row * dims;
    let j = 0;
    for (; j + 1 < dims; j += 2, o += 2) {
      a += (data[o] as number) * (q[j] as number);
      b += (data[o + 1] as number) * (q[j + 1] as number);
    }
    if (j < dims) a += (data[o] as number) * (q[j] as number);
    return a + b;
  }

  /** One row's dot product into the heap: 'kept', 'skipped' (zero, below the floor or not better than the k-th), 'rejected' by allow. */
  #consider(row: number, dot: number, qn: number, opts: ScoreOpts, heap: VectorHit[]): 'kept' | 'skipped' | 'rejected' {
    const norm = this.#norms[row] as number;
    if (!(norm > 0)) return 'skipped';
    const cosine = dot / (norm * qn);
    if (cosine < opts.floor || (heap.length === opts.k && cosine <= (heap[0] as VectorHit).cosine)) return 'skipped';
    const id = this.#ids[row] as number;
    if (opts.allow && !opts.allow(id)) return 'rejected';
    if (heap.length < opts.k) heapPush(heap, { id, cosine });
    else heapReplaceTop(heap, { id, cosine });
    return 'kept';
  }

  #grow(): void {
    const capacity = this.#ids.length * 2;
    const kernel = this.#kernel;
    if (kernel) {
      // The rows stay where they are; the memory grows past them (its old views are detached).
      const need = kernel.dataAt + this.dims * capacity;
      const have = kernel.memory.buffer.byteLength;
      if (have < need) kernel.memory.grow(Math.ceil((need - have) / PAGE));
      this.#data = new Int8Array(kernel.memory.buffer, kernel.dataAt, this.dims * capacity);
    } else {
      const data = new Int8Array(this.dims * capacity);
      data.set(this.#data);
      this.#data = data;
    }
    const ids = new Float64Array(capacity);
    ids.set(this.#ids);
    this.#ids = ids;
    const norms = new Float32Array(capacity);
    norms.set(this.#norms);
    this.#norms = norms;
    const bits = new Uint8Array(this.signBytes * capacity);
    bits.set(this.#bits);
    this.#bits = bits;
    this.#dist = new Int32Array(capacity);
  }
}

type ScoreOpts = { k: number; floor: number; allow?: (id: number) => boolean };

/** The signs of `v` (bit set: positive) packed 8 to a byte into `out` from `at`. */
function signBits(v: Int8Array, out: Uint8Array, at: number): void {
  const bytes = Math.ceil(v.length / 8);
  for (let b = 0; b < bytes; b++) {
    let byte = 0;
    for (let bit = 0; bit < 8; bit++) if (((v[(b << 3) + bit] as number | undefined) ?? 0) > 0) byte |= 1 << bit;
    out[at + b] = byte;
  }
}

/**
 * Stage 1 over words [from, to) of each row (`rows`, or rows 0..count−1): adds their table sums to `scores`
 * (from = 0: sets them) and counts the scores into `hist`.
 */
function scoreWords(words: Uint32Array, lut: Int32Array, scores: Int32Array, hist: Uint32Array, rows: Int32Array | null, count: number, wordsPerRow: number, from: number, to: number, offset: number): void {
  for (let i = 0; i < count; i++) {
    const row = rows ? (rows[i] as number) : i;
    let sc = from === 0 ? 0 : (scores[row] as number);
    for (let o = row * wordsPerRow + from, base = from << 10, end = to << 10; base < end; o++, base += 1024) {
      const x = words[o] as number;
      sc +=
        (lut[base | (x & 255)] as number) +
        (lut[(base + 256) | ((x >>> 8) & 255)] as number) +
        (lut[(base + 512) | ((x >>> 16) & 255)] as number) +
        (lut[(base + 768) | (x >>> 24)] as number);
    }
    scores[row] = sc;
    const bucket = (offset - sc) >> SHIFT;
    hist[bucket] = (hist[bucket] as number) + 1;
  }
}

/** The `n` best-scored of `rows` (or rows 0..count−1) by the histogram of their scores, in row order (ties at the cut: the first). */
function select(scores: Int32Array, rows: Int32Array | null, count: number, hist: Uint32Array, n: number, offset: number): Int32Array {
  let cut = 0;
  for (let seen = 0; cut < hist.length; cut++) {
    seen += hist[cut] as number;
    if (seen >= n) break;
  }
  let atCut = n;
  for (let d = 0; d < cut; d++) atCut -= hist[d] as number;
  const out = new Int32Array(Math.min(n, count));
  let k = 0;
  for (let i = 0; i < count && k < out.length; i++) {
    const row = rows ? (rows[i] as number) : i;
    const d = (offset - (scores[row] as number)) >> SHIFT;
    if (d < cut) out[k++] = row;
    else if (d === cut && atCut > 0) {
      out[k++] = row;
      atCut--;
    }
  }
  return k === out.length ? out : out.subarray(0, k);
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
