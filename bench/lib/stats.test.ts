import { describe, expect, it } from 'vitest';
import { percentile, round, summarize } from './stats';
import { createPrng } from './prng';

describe('percentile (linear interpolation, numpy default)', () => {
  it.each<[number[], number, number]>([
    [[1, 2, 3, 4, 5], 50, 3],
    [[1, 2, 3, 4], 50, 2.5],
    // (n-1)·p = 3·0.95 = 2.85 → 3 + 0.85·(4 − 3)
    [[4, 1, 3, 2], 95, 3.85],
    [[10], 99, 10],
    [[1, 100], 0, 1],
    [[1, 100], 100, 100],
  ])('%j at p%d = %d', (values, p, expected) => {
    expect(percentile(values, p)).toBeCloseTo(expected, 12);
  });

  it('is NaN for no samples and refuses p outside 0–100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it('summarizes a long tail: p95 and p99 see the slow calls the median hides', () => {
    const values = [...Array.from({ length: 95 }, () => 1), 50, 50, 50, 50, 100];
    const s = summarize(values);
    expect(s.p50).toBe(1);
    expect(s.p99).toBeGreaterThan(50);
    expect(s.max).toBe(100);
    expect(s.n).toBe(100);
  });

  it('handles 200,000 samples (no argument-spread limits)', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => i);
    expect(summarize(values).max).toBe(199_999);
  });

  it('rounds for reports', () => {
    expect(round(1.23456, 2)).toBe(1.23);
    expect(round(Number.NaN)).toBeNaN();
  });
});

describe('seeded PRNG', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = createPrng(7);
    const b = createPrng(7);
    const c = createPrng(8);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const v of seqA) expect(v >= 0 && v < 1).toBe(true);
  });

  it('int covers both ends of its range', () => {
    const r = createPrng(1);
    const seen = new Set(Array.from({ length: 200 }, () => r.int(1, 3)));
    expect([...seen].sort()).toEqual([1, 2, 3]);
  });
});
