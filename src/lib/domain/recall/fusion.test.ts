import { describe, expect, it } from 'vitest';
import { bestPerGroup, lexicalScores, ranksOf, sumRanks, withNeighbours, type Neighbours } from './fusion';

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
    // 1: "What got you into sailing?" (matches), 2: the answer (no shared words), 3: unrelated
    const own = new Map([[1, 1]]);
    const links = new Map([[1, link(null, 2)], [2, link(1, 3, 1, 0.5)], [3, link(2, null)]]);
    const out = withNeighbours(own, links);
    expect(out.get(2)).toBeCloseTo(0.5, 10);
    expect(out.get(1)).toBeCloseTo(0.5, 10);
    expect(out.has(3)).toBe(false);
  });

  it.each([
    { farPrev: null, farNext: 3, farWeight: 0.5, want: 0.5 / 2 },
    { farPrev: 4, farNext: 3, farWeight: 0.5, want: 0.5 / 2 }, // the better of the two only
    { farPrev: null, farNext: null, farWeight: 0.5, want: 0 },
    { farPrev: null, farNext: 3, farWeight: 0, want: 0 },
  ])('lets a turn borrow farWeight of the better turn two places away (%o)', ({ farPrev, farNext, farWeight, want }) => {
    // 1: no match itself; 3 the same person two turns later matches (4, two turns earlier, less)
    const own = new Map([[3, 1], [4, 0.4]]);
    const links = new Map([[1, { ...link(null, 2, 1, 0.5), farPrev, farNext, farWeight }]]);
    expect(withNeighbours(own, links).get(1) ?? 0).toBeCloseTo(want, 10);
  });

  it('adds the better neighbour only, so a turn between two matches is not double-counted', () => {
    const own = new Map([[1, 1], [2, 0.2], [3, 1]]);
    const links = new Map([[2, link(1, 3)]]);
    expect(withNeighbours(own, links).get(2)).toBeCloseTo((0.2 + 0.5) / 1.5, 10);
  });
});

describe('ranksOf', () => {
  it.each([
    ['best first', new Map([['a', 0.9], ['b', 0.2], ['c', 0.5]]), new Map([['a', 1], ['c', 2], ['b', 3]])],
    ['ties share the better rank', new Map([['x', 1], ['y', 1], ['z', 0.5]]), new Map([['x', 1], ['y', 1], ['z', 3]])],
  ])('%s', (_, scores, want) => {
    expect(ranksOf(scores)).toEqual(want);
  });
});

describe('sumRanks', () => {
  it('adds each turn’s bm25 from queries over different terms, keeping turns only one of them found', () => {
    const rare = new Map([[1, -5], [2, -3]]);
    const common = new Map([[2, -1], [3, -2]]);
    expect(sumRanks([rare, common])).toEqual(new Map([[1, -5], [2, -4], [3, -2]]));
    expect(sumRanks([])).toEqual(new Map());
  });
});

describe('bestPerGroup', () => {
  it('keeps each conversation’s best score', () => {
    const group = new Map([[1, 'a'], [2, 'a'], [3, 'b']]);
    expect(bestPerGroup(new Map([[1, 0.2], [2, 0.9], [3, 0.4], [4, 1]]), (id) => group.get(id))).toEqual(new Map([['a', 0.9], ['b', 0.4]]));
  });
});
