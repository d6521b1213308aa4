import { describe, expect, it } from 'vitest';
import type { RankedTurn } from './rank-turns';
import { recallScore } from './score';
import { gathers, spreadAcrossConversations } from './spread';
import { QUIET_SIGNALS } from './testing';

describe('gathers', () => {
  it.each([
    ['How many concerts have I been to this year?', true],
    ['What is the total number of marathons I have run?', true],
    ['Which did I start first, the pottery class or the choir?', true],
    ['Did I pay less at the bakery, compared to the café?', true],
    ['我一共去过几次上海？', true],
    ['咖啡和茶我更喜欢哪个，还是都喜欢？', true],
    ['How long have I had my dog, Miso?', false],
    ['What did Priya study?', false],
    ['我的猫叫什么名字？', false],
  ])('%s → %s', (question, want) => {
    expect(gathers(question)).toBe(want);
  });
});

describe('spreadAcrossConversations', () => {
  const turn = (id: number, context: number): RankedTurn => ({
    id,
    score: recallScore({ symbol: 0, recency: 1, context }),
    signals: { ...QUIET_SIGNALS, lexical: context },
    matchedSymbols: [],
    ftsRank: null,
  });
  // Turns 1–4 are one conversation about concerts, 5 and 6 two others that each hold one concert.
  const conversation = (id: number) => (id <= 4 ? 'planning' : `other-${id}`);
  const ranked = [turn(1, 1), turn(2, 0.95), turn(3, 0.9), turn(4, 0.85), turn(5, 0.6), turn(6, 0.5)];

  it.each([
    { free: 2, factor: 0.5, want: [1, 2, 5, 6, 3, 4] },
    { free: 2, factor: 1, want: [1, 2, 3, 4, 5, 6] },
    { free: 1, factor: 0.5, want: [1, 5, 6, 2, 3, 4] },
  ])('lists other conversations before a third hit of one (free $free, factor $factor)', ({ free, factor, want }) => {
    const out = spreadAcrossConversations(ranked, conversation, { free, factor });
    expect(out.map((r) => r.id)).toEqual(want);
    // The list is in order of the relevance it shows, and each hit says what its context got.
    for (let i = 1; i < out.length; i++) expect(out[i]!.score.relevance).toBeLessThanOrEqual(out[i - 1]!.score.relevance);
    for (const r of out) expect(r.score.terms.context).toBeCloseTo(ranked.find((x) => x.id === r.id)!.score.terms.context * r.signals.spread!, 10);
  });
});
