import { describe, expect, it } from 'vitest';
import { dotKernel, dotKernelBytes } from './dot-kernel';
import { VectorIndex } from './vector-index';

/** xorshift32: the same cases on every run. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const int8 = (rand: () => number, dims: number, spread = 255) => Int8Array.from({ length: dims }, () => Math.round((rand() - 0.5) * spread));

describe('the WebAssembly SIMD dot kernel of the vector index', { timeout: 60_000 }, () => {
  it('is a valid module that Node 20 compiles (WebAssembly SIMD), so the index uses it at 384 dimensions', () => {
    expect(WebAssembly.validate(dotKernelBytes())).toBe(true);
    expect(dotKernel()).not.toBeNull();
    expect(new VectorIndex(384).simd).toBe(true);
    expect(new VectorIndex(384, 16, 'js').simd).toBe(false);
    // Not a multiple of 16: the JS loop scores.
    expect(new VectorIndex(100).simd).toBe(false);
  });

  it('returns the same hits with the same cosines as the JS loop, through growth, replacement, deletion, floors and allow (random cases)', () => {
    const rand = prng(7);
    let searches = 0;
    for (let c = 0; c < 12; c++) {
      const dims = 16 * (1 + Math.floor(rand() * 24)); // 16 … 384
      const simd = new VectorIndex(dims, 8); // small capacity: the kernel's memory grows many times
      const js = new VectorIndex(dims, 8, 'js');
      expect(simd.simd).toBe(true);
      const n = 200 + Math.floor(rand() * 6000);
      // Extremes included: ±127 and −128 in rows and questions.
      const spread = c % 3 === 0 ? 400 : 255;
      for (let i = 0; i < n; i++) {
        const id = 1 + Math.floor(rand() * n * 1.2); // some ids repeat: replacements
        const v = Int8Array.from(int8(rand, dims, spread), (x) => Math.max(-128, Math.min(127, x)));
        simd.set(id, v);
        js.set(id, v);
        if (rand() < 0.05) {
          const gone = 1 + Math.floor(rand() * n);
          simd.delete(gone);
          js.delete(gone);
        }
        // Searches while the index grows: the kernel's scratch grows the memory too, and later rows must land intact.
        if (i % 997 === 0 || i === n - 1) {
          const q = int8(rand, dims);
          const k = 1 + Math.floor(rand() * 60);
          const floor = rand() < 0.5 ? -1 : rand() * 0.3;
          const banned = Math.floor(rand() * 3);
          const allow = banned ? (id: number) => id % 3 !== banned : undefined;
          for (const exact of [false, true]) {
            const opts = { k, floor, allow, exact, shortlist: 50 + Math.floor(rand() * 200) };
            expect(simd.search(q, opts)).toEqual(js.search(q, opts));
            searches++;
          }
        }
      }
      expect(simd.size).toBe(js.size);
    }
    expect(searches).toBeGreaterThan(100);
  });

  it('keeps every row when a search grows the memory for its scratch (a full index: 8,192 × 16 fills its pages)', () => {
    const rand = prng(3);
    const simd = new VectorIndex(16, 8192);
    const js = new VectorIndex(16, 8192, 'js');
    const rows = Array.from({ length: 8192 }, () => int8(rand, 16));
    rows.forEach((v, i) => (simd.set(i + 1, v), js.set(i + 1, v)));
    const q = int8(rand, 16);
    // Scoring all 8,192 rows needs 64 KB of scratch past the rows: more than the last page has left.
    expect(simd.search(q, { k: 20, floor: -1, exact: true })).toEqual(js.search(q, { k: 20, floor: -1, exact: true }));
    rows.slice(0, 300).forEach((v, i) => (simd.set(9000 + i, v), js.set(9000 + i, v)));
    for (const stored of [rows[5], rows[4000], rows[100]] as Int8Array[]) {
      const opts = { k: 5, floor: -1, exact: true };
      expect(simd.search(stored, opts)).toEqual(js.search(stored, opts));
      expect(simd.search(stored, opts)[0]?.cosine).toBeCloseTo(1, 6);
    }
  });
});
