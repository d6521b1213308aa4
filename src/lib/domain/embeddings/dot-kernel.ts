/**
 * The vector index's exact stage in WebAssembly SIMD (issue 18): the int8 dot product of the question with a list of
 * stored rows, 16 dimensions an instruction (i8x16 rows widened to i16x8, times the question's i16 values by
 * i32x4.dot_i16x8_s). The same integer sums as the JS loop in vector-index.ts, so the same cosines and the same hits
 * (vector-index.test.ts checks both ways on the same rows); the JS loop stays the fallback where WebAssembly SIMD is
 * missing or the dimensions are not a multiple of 16.
 *
 * The module is assembled here from the instructions below (no binary is committed, nothing to drift from its
 * source); it imports its memory, which the index allocates and lays out:
 *   [question: dims × i16] [rows: capacity × dims × i8] [scratch: the rows to score (i32) and their dots (i32)]
 *
 *   (func (export "dots") (param $q i32) (param $data i32) (param $rows i32) (param $count i32) (param $dims i32)
 *                         (param $out i32)
 *     ;; for each of the $count row numbers at $rows: out[i] = Σ_j data[row·dims + j] · q[j]
 *     (local $p i32) (local $end i32) (local $j i32) (local $unused i32) (local $acc v128) (local $v v128)
 *     (block (br_if 0 (i32.eqz (local.get $count)))
 *       (loop $row
 *         (local.set $p (i32.add (local.get $data) (i32.mul (i32.load (local.get $rows)) (local.get $dims))))
 *         (local.set $end (i32.add (local.get $p) (local.get $dims)))
 *         (local.set $j (local.get $q))
 *         (local.set $acc (v128.const i32x4 0 0 0 0))
 *         (loop $dim
 *           (local.set $v (v128.load (local.get $p)))
 *           (local.set $acc (i32x4.add (i32x4.add (local.get $acc)
 *               (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $j))))
 *               (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $j)))))
 *           (local.set $j (i32.add (local.get $j) (i32.const 32)))
 *           (br_if $dim (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $end))))
 *         (i32.store (local.get $out) (i32x4 lane 0 + 1 + 2 + 3 of $acc))
 *         (local.set $out (i32.add (local.get $out) (i32.const 4)))
 *         (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
 *         (br_if $row (local.tee $count (i32.sub (local.get $count) (i32.const 1)))))))
 */

/** Local indices of the function above. */
const Q = 0, DATA = 1, ROWS = 2, COUNT = 3, DIMS = 4, OUT = 5, P = 6, END = 7, J = 8, ACC = 10, V = 11;

/** Opcodes (core and the 0xfd SIMD prefix; the SIMD sub-opcodes ≥ 128 are two LEB128 bytes). */
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br_if: 0x0d, void: 0x40,
  get: 0x20, set: 0x21, tee: 0x22,
  i32load: 0x28, i32store: 0x36, i32const: 0x41, i32eqz: 0x45, i32ltU: 0x49, i32add: 0x6a, i32sub: 0x6b, i32mul: 0x6c,
  v128load: [0xfd, 0x00], v128const: [0xfd, 0x0c], i32x4extractLane: [0xfd, 0x1b],
  i16x8extendLowI8x16S: [0xfd, 0x87, 0x01], i16x8extendHighI8x16S: [0xfd, 0x88, 0x01],
  i32x4add: [0xfd, 0xae, 0x01], i32x4dotI16x8S: [0xfd, 0xba, 0x01],
} as const;

function body(): number[] {
  const get = (l: number) => [op.get, l];
  const set = (l: number) => [op.set, l];
  const tee = (l: number) => [op.tee, l];
  const c = (n: number) => [op.i32const, n]; // 0 ≤ n < 64: one signed LEB128 byte
  const mem = (align: number, offset: number) => [align, offset]; // offsets < 128: one LEB128 byte
  const lane = (n: number) => [...get(ACC), ...op.i32x4extractLane, n];
  const code = [
    op.block, op.void,
    ...get(COUNT), op.i32eqz, op.br_if, 0,
    op.loop, op.void,
    ...get(DATA), ...get(ROWS), op.i32load, ...mem(2, 0), ...get(DIMS), op.i32mul, op.i32add, ...set(P),
    ...get(P), ...get(DIMS), op.i32add, ...set(END),
    ...get(Q), ...set(J),
    ...op.v128const, ...new Array<number>(16).fill(0), ...set(ACC),
    op.loop, op.void,
    ...get(P), ...op.v128load, ...mem(0, 0), ...set(V),
    ...get(ACC),
    ...get(V), ...op.i16x8extendLowI8x16S, ...get(J), ...op.v128load, ...mem(0, 0), ...op.i32x4dotI16x8S, ...op.i32x4add,
    ...get(V), ...op.i16x8extendHighI8x16S, ...get(J), ...op.v128load, ...mem(0, 16), ...op.i32x4dotI16x8S, ...op.i32x4add,
    ...set(ACC),
    ...get(J), ...c(32), op.i32add, ...set(J),
    ...get(P), ...c(16), op.i32add, ...tee(P), ...get(END), op.i32ltU, op.br_if, 0,
    op.end,
    ...get(OUT), ...lane(0), ...lane(1), op.i32add, ...lane(2), op.i32add, ...lane(3), op.i32add, op.i32store, ...mem(2, 0),
    ...get(OUT), ...c(4), op.i32add, ...set(OUT),
    ...get(ROWS), ...c(4), op.i32add, ...set(ROWS),
    ...get(COUNT), ...c(1), op.i32sub, ...tee(COUNT), op.br_if, 0,
    op.end,
    op.end,
    op.end,
  ];
  // Locals after the 6 parameters: 4 × i32 (p, end, j, unused), 2 × v128 (acc, v).
  return [2, 4, 0x7f, 2, 0x7b, ...code];
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string) => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];

/** The module's bytes: one function `dots` over an imported memory `m.mem`. */
export function dotKernelBytes(): Uint8Array<ArrayBuffer> {
  const fn = body();
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(2, [1, ...name('m'), ...name('mem'), 0x02, 0x00, 1]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('dots'), 0x00, 0]),
    ...section(10, [1, ...uleb(fn.length), ...fn]),
  ]);
}

export type DotsFn = (q: number, data: number, rows: number, count: number, dims: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, or null where WebAssembly or its SIMD is missing (then the index scores in JS). */
export function dotKernel(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      const bytes = dotKernelBytes();
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** The kernel bound to `memory`. */
export function instantiateDots(module: WebAssembly.Module, memory: WebAssembly.Memory): DotsFn {
  return new WebAssembly.Instance(module, { m: { mem: memory } }).exports.dots as DotsFn;
}
