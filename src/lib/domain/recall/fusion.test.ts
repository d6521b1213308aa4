import { describe, expect, it } from 'vitest';
import { fuseRanks, lexicalScores, ranksOf, sessionScores, withNeighbours, type Neighbours } from './fusion';

describe('lexicalScores', () => {
  it('scales bm25 ranks to the best one', () => {
    expect(lexicalScores(new Map([[1, -4], [2, -2], [3, -1]]))).toEqual(new Map([[1, 1], [2, 0.5], [3, 0.25]]));
  });
  it('gives every match 1 when no rank is usable (tiny corpora)', () => {
    expect(lexicalScores(new Map([[1, 0], [2, 0]]))).toEqual(new Map([[1, 1], [2, 1]]));
  });
});

describe('withNeighbours', () => {
  const link = (prev: number | null, next: number | null, prevWeight = 0.5, nextWeight = 0.5): Neighbours<number> => ({ prev, next, prevWeight, nextWeight });

  it('lets a reply right after a matching question score as high as the question', () => {
    // 1: "What got you into running?" (matches), 2: the answer (no shared words), 3: unrelated
    const own = new Map([[1, 1]]);
    const links = new Map([[1, link(null, 2)], [2, link(1, 3, 1, 0.5)], [3, link(2, null)]]);
    const out = withNeighbours(own, links);
    expect(out.get(2)).toBeCloseTo(0.5, 10);
    expect(out.get(1)).toBeCloseTo(0.5, 10);
    expect(out.has(3)).toBe(false);
  });

  it('adds the better neighbour only, so a turn between two matches is not double-counted', () => {
    const own = new Map([[1, 1], [2, 0.2], [3, 1]]);
    const links = new Map([[2, link(1, 3)]]);
    expect(withNeighbours(own, links).get(2)).toBeCloseTo((0.2 + 0.5) / 1.5, 10);
  });
});

describe('sessionScores and ranksOf', () => {
  it('sums each session’s best turns and ranks sessions by it', () => {
    const scores = new Map([[1, 0.9], [2, 0.8], [3, 0.7], [4, 0.1], [5, 1]]);
    const session = (id: number) => (id <= 4 ? 'a' : 'b');
    const s = sessionScores(scores, session, 3);
    expect(s.get('a')).toBeCloseTo(2.4, 10);
    expect(s.get('b')).toBe(1);
    expect(ranksOf(s)).toEqual(new Map([['a', 1], ['b', 2]]));
  });

  it('gives ties the same rank', () => {
    expect(ranksOf(new Map([['x', 1], ['y', 1], ['z', 0.5]]))).toEqual(new Map([['x', 1], ['y', 1], ['z', 3]]));
  });
});

describe('fuseRanks', () => {
  it.each([
    ['first everywhere', [{ rank: 1, weight: 1 }, { rank: 1, weight: 0.5 }], 1],
    ['unlisted everywhere', [{ rank: undefined, weight: 1 }], 0],
  ])('%s → %s', (_, parts, want) => {
    expect(fuseRanks(parts, 20)).toBeCloseTo(want, 10);
  });

  it('prefers a turn whose conversation also ranks high', () => {
    const alone = fuseRanks([{ rank: 2, weight: 1 }, { rank: 9, weight: 0.5 }], 20);
    const together = fuseRanks([{ rank: 3, weight: 1 }, { rank: 1, weight: 0.5 }], 20);
    expect(together).toBeGreaterThan(alone);
  });
});
