import { describe, expect, it } from 'vitest';
import { listHits, MAX_HITS_PER_BLOCK, recallScore, symbolMatchScore } from './score';

type H = { id: string; block: string; relevance: number; createdAt: number };
const h = (id: string, block: string, relevance: number, createdAt = 0): H => ({ id, block, relevance, createdAt });

describe('recallScore (seed 002 REQ-LTM-005)', () => {
  it.each([
    [{ symbol: 1, recency: 1, context: 1 }, 1],
    [{ symbol: 0, recency: 1, context: 0.5 }, 0.45],
    [{ symbol: 1, recency: 0, context: 0 }, 0.4],
  ])('%o → %s', (terms, want) => {
    expect(recallScore(terms).relevance).toBeCloseTo(want, 10);
  });
});

describe('symbolMatchScore', () => {
  it('counts each query symbol with the turn’s relevance for it, case-insensitively', () => {
    expect(symbolMatchScore(['processPayment', 'OrderService'], new Map([['processpayment', 1]]))).toBe(0.5);
    expect(symbolMatchScore([], new Map([['x', 1]]))).toBe(0);
  });
});

describe('listHits', () => {
  it('lists best first, ties to the newer, with no cap per block', () => {
    const out = listHits([h('a1', 'a', 0.9), h('a2', 'a', 0.8), h('a3', 'a', 0.7), h('b1', 'b', 0.6, 1), h('b2', 'b', 0.6, 2)], 4);
    expect(out.map((x) => x.id)).toEqual(['a1', 'a2', 'a3', 'b2']);
  });

  it.each([
    ['before the block’s third relevant turn, once', 5, ['a1', 'a2', 'summary-a', 'a3', 'a4']],
    ['even when the list then ends with the summary', 3, ['a1', 'a2', 'summary-a']],
  ])('lists a summarised block’s summary %s', (_, limit, want) => {
    const hits = [h('a1', 'a', 0.9), h('a2', 'a', 0.8), h('a3', 'a', 0.7), h('a4', 'a', 0.65), h('b1', 'b', 0.6)];
    const out = listHits(hits, limit, { standIn: (block, hit) => (block === 'a' ? { ...hit, id: 'summary-a' } : null) });
    expect(out.map((x) => x.id)).toEqual(want);
  });

  it('leaves out a third near-copy, and lets its block’s summary stand in for it', () => {
    const hits = [h('r1', 'recent', 0.9), h('r2', 'recent', 0.89), h('r3', 'recent', 0.88), h('e1', 'early', 0.8), h('e2', 'early', 0.79)];
    const copies = (a: H, b: H) => a.id[0] === b.id[0];
    const standIn = (block: string, hit: H) => (block === 'early' ? { ...hit, id: 'summary-early' } : null);
    expect(listHits(hits, 5, { copies }).map((x) => x.id)).toEqual(['r1', 'r2', 'e1', 'e2']);
    const early = [h('e1', 'early', 0.9), h('e2', 'early', 0.89), h('e3', 'early', 0.88), h('x1', 'other', 0.5)];
    expect(listHits(early, 5, { copies, standIn }).map((x) => x.id)).toEqual(['e1', 'e2', 'summary-early', 'x1']);
  });

  it('takes no slot for a summary when the block has no more relevant turns than MAX_HITS_PER_BLOCK', () => {
    expect(MAX_HITS_PER_BLOCK).toBe(2);
    const out = listHits([h('a1', 'a', 0.9), h('b1', 'b', 0.8), h('a2', 'a', 0.7)], 5, { standIn: (_, s) => ({ ...s, id: 'summary' }) });
    expect(out.map((x) => x.id)).toEqual(['a1', 'b1', 'a2']);
  });
});
