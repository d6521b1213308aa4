import { describe, expect, it } from 'vitest';
import type { RankedTurn } from './rank-turns';
import { recallScore } from './score';
import { firstStatements, gathers, spreadAcrossConversations, withFirstStatements } from './spread';
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

describe('firstStatements / withFirstStatements', () => {
  // Two conversations: a opens with the fact and talks it over after; b states it once, late.
  const facts = new Map([
    [1, { sessionId: 'a', turnNo: 1 }],
    [2, { sessionId: 'a', turnNo: 5 }],
    [3, { sessionId: 'a', turnNo: 9 }],
    [4, { sessionId: 'b', turnNo: 7 }],
    [5, { sessionId: 'b', turnNo: 2 }],
  ]);
  const refined = new Map([
    [1, { statement: 0.5, factor: 1 }],
    [2, { statement: 0.8, factor: 1.2 }],
    [3, { statement: 0.8, factor: 1.1 }],
    [4, { statement: 0.4, factor: 1 }],
    [5, { statement: 0, factor: 1 }], // b's earlier turn states none of the question's words (a request)
  ]);
  const head = [{ id: 2 }, { id: 3 }, { id: 4 }, { id: 1 }, { id: 5 }];

  it("finds each conversation's earliest turn that states some of the question's words, whatever its rank", () => {
    expect([...firstStatements(head, facts, refined)].sort()).toEqual([1, 4]);
  });

  it('raises only those turns, by (1 + weight), in a new map', () => {
    const out = withFirstStatements(head, facts, refined, 0.5);
    expect([...out].map(([id, r]) => [id, r.factor])).toEqual([
      [1, 1.5],
      [2, 1.2],
      [3, 1.1],
      [4, 1.5],
      [5, 1],
    ]);
    expect(refined.get(1)?.factor).toBe(1);
  });

  it('knows nothing of turns outside the head or without a second stage', () => {
    expect(firstStatements([{ id: 9 }], facts, refined).size).toBe(0);
    expect(firstStatements(head, facts, new Map()).size).toBe(0);
  });
});
