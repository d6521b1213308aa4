import { describe, expect, it } from 'vitest';
import { averageScores, dedupeSlots, firstDistinct, ndcgAtK, recallAllAtK, recallAnyAtK, recallAtK, type Ranking } from './metrics';

const gold = (...ids: string[]) => new Set(ids);

describe('recall@k (README: |evidence ∩ top-k| / |evidence|)', () => {
  it.each<[string, Ranking, string[], number, number]>([
    ['all gold in the top k', ['a', 'b', 'c'], ['a', 'c'], 3, 1],
    ['one of two gold in the top k', ['a', 'x', 'c'], ['a', 'c'], 2, 0.5],
    ['gold just past k does not count', ['x', 'y', 'a'], ['a'], 2, 0],
    ['an empty slot still takes a rank', [null, null, 'a'], ['a'], 2, 0],
    ['one of three', ['b', 'x', 'y', 'z', 'w'], ['a', 'b', 'c'], 5, 1 / 3],
    ['a repeated unit counts once', ['a', 'a'], ['a', 'b'], 2, 0.5],
  ])('%s', (_name, ranking, g, k, expected) => {
    expect(recallAtK(ranking, gold(...g), k)).toBeCloseTo(expected, 12);
  });

  it('refuses an empty gold set rather than inventing a score', () => {
    expect(() => recallAtK(['a'], gold(), 5)).toThrow(RangeError);
  });
});

describe('recall_all@k and recall_any@k (LongMemEval)', () => {
  it.each<[string, Ranking, string[], number, number, number]>([
    ['both gold sessions in the top 5', ['s1', 's9', 's2'], ['s1', 's2'], 5, 1, 1],
    ['one of two', ['s1', 's9', 's8'], ['s1', 's2'], 5, 0, 1],
    ['none', ['s7', 's9', 's8'], ['s1', 's2'], 5, 0, 0],
    ['the second gold falls at rank 6', ['s1', 'a', 'b', 'c', 'd', 's2'], ['s1', 's2'], 5, 0, 1],
  ])('%s', (_name, ranking, g, k, all, any) => {
    expect(recallAllAtK(ranking, gold(...g), k)).toBe(all);
    expect(recallAnyAtK(ranking, gold(...g), k)).toBe(any);
  });
});

describe('NDCG@k with binary relevance', () => {
  it.each<[string, Ranking, string[], number, number]>([
    ['perfect order', ['a', 'b', 'x'], ['a', 'b'], 10, 1],
    // DCG = 1/log2(3) = 0.6309; IDCG = 1
    ['the only gold at rank 2', ['x', 'a'], ['a'], 10, 1 / Math.log2(3)],
    // DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309
    ['gold at ranks 1 and 3 of two', ['a', 'x', 'b'], ['a', 'b'], 10, 1.5 / (1 + 1 / Math.log2(3))],
    // IDCG is capped at k relevant ranks: three gold, k = 2, both slots gold → 1
    ['more gold than k', ['a', 'b'], ['a', 'b', 'c'], 2, 1],
    ['a repeat of a gold unit earns nothing', ['a', 'a'], ['a', 'b'], 10, 1 / (1 + 1 / Math.log2(3))],
    ['nothing relevant', ['x', null, 'y'], ['a'], 10, 0],
    // gold at rank 3 behind an empty slot: 1/log2(4) = 0.5
    ['an empty slot pushes gold down', [null, 'x', 'a'], ['a'], 10, 0.5],
  ])('%s', (_name, ranking, g, k, expected) => {
    expect(ndcgAtK(ranking, gold(...g), k)).toBeCloseTo(expected, 12);
  });
});

describe('turning hits into rankings', () => {
  it('a session listed again becomes an empty slot, so five turns from two sessions show two', () => {
    expect(dedupeSlots(['s1', 's1', 's2', null, 's2'])).toEqual(['s1', null, 's2', null, null]);
  });

  it('firstDistinct skips empty slots and repeats ("ask for 50, show the first k")', () => {
    expect(firstDistinct([null, 's1', 's1', 's2', null, 's3'], 2)).toEqual(['s1', 's2']);
    expect(firstDistinct(['a'], 3)).toEqual(['a']);
  });

  it('averages each metric over the items that have it', () => {
    expect(averageScores([{ a: 1, b: 0 }, { a: 0 }, { a: 0.5, b: 1 }])).toEqual({ a: 0.5, b: 0.5 });
  });
});
