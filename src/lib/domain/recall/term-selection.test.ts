import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from './config';
import { selectTerms } from './term-selection';
import type { TurnSource } from './turn-source';

/** An index of 1,000 turns where every term matches 10 (rare: searched in full). */
const index = {
  turnCountBound: () => 1000,
  newestMatches: () => ({ count: 10, lowest: 1 }),
  windowStart: () => null,
} as unknown as TurnSource;

describe('selectTerms', () => {
  it('searches every form of an irregular verb as one term', () => {
    const out = selectTerms(['write', 'screenplay'], { index, config: DEFAULT_RETRIEVAL_CONFIG });
    expect(out.lanes).toEqual([{ match: '"write" OR "wrote" OR "written" OR "screenplay"', from: 0 }]);
    expect(out.weighted[0]).toMatchObject({ keyword: 'write', forms: ['wrote', 'written'] });
    const plain = selectTerms(['write'], { index, config: { ...DEFAULT_RETRIEVAL_CONFIG, verbForms: false } });
    expect(plain.lanes[0]?.match).toBe('"write"');
  });

  it('searches a common term among its newest matches only, in a lane of its own', () => {
    const big = { turnCountBound: () => 100_000, newestMatches: (m: string) => (m === '"sync"' ? { count: 128, lowest: 99_000 } : { count: 5, lowest: 1 }), windowStart: () => 98_500 } as unknown as TurnSource;
    const out = selectTerms(['sync', 'kafka'], { index: big, config: DEFAULT_RETRIEVAL_CONFIG });
    expect(out.lanes).toEqual([
      { match: '"kafka"', from: 0 },
      { match: '"sync"', from: 98_500 },
    ]);
    expect(out.kept).toEqual(['sync', 'kafka']);
    expect(out.windowed).toBe(true);
  });

  it('probes at most probedTerms keywords', () => {
    const out = selectTerms(['a1', 'b2', 'c3', 'd4'], { index, config: { ...DEFAULT_RETRIEVAL_CONFIG, probedTerms: 2 } });
    expect(out.kept).toEqual(['a1', 'b2']);
  });
});
