import { describe, expect, it } from 'vitest';
import { diversify, MAX_HITS_PER_BLOCK, recallScore, symbolMatchScore } from './score';

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

describe('diversify', () => {
  it('keeps at most two hits per block, best first, ties to the newer', () => {
    const out = diversify([h('a1', 'a', 0.9), h('a2', 'a', 0.8), h('a3', 'a', 0.7), h('b1', 'b', 0.6, 1), h('b2', 'b', 0.6, 2)], 4);
    expect(MAX_HITS_PER_BLOCK).toBe(2);
    expect(out.map((x) => x.id)).toEqual(['a1', 'a2', 'b2', 'b1']);
  });

  it('lists a summarised block’s summary in place of its third relevant turn, once', () => {
    const hits = [h('a1', 'a', 0.9), h('a2', 'a', 0.8), h('a3', 'a', 0.7), h('a4', 'a', 0.65), h('b1', 'b', 0.6)];
    const out = diversify(hits, 5, { standIn: (block, skipped) => (block === 'a' ? { ...skipped, id: 'summary-a' } : null) });
    expect(out.map((x) => x.id)).toEqual(['a1', 'a2', 'summary-a', 'b1']);
  });

  it('takes no slot for a summary when the block fits in the list', () => {
    const out = diversify([h('a1', 'a', 0.9), h('b1', 'b', 0.8)], 5, { standIn: (_, s) => ({ ...s, id: 'summary' }) });
    expect(out.map((x) => x.id)).toEqual(['a1', 'b1']);
  });
});
