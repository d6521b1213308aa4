import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../clock';
import { DEFAULT_RETRIEVAL_CONFIG } from './config';
import { rankScored, rankTurns, refineHead, scoreTurns, type RankTurnsInput, type TurnFacts } from './rank-turns';

const NOW = Date.UTC(2024, 4, 15);

/** A conversation of consecutive turns 1..n (ids = turn order), alternating user/assistant. */
function conversation(n: number, opts: { session?: string; at?: (i: number) => number; questions?: number[] } = {}): Map<number, TurnFacts> {
  const facts = new Map<number, TurnFacts>();
  for (let i = 1; i <= n; i++) {
    facts.set(i, {
      id: i,
      sessionId: opts.session ?? 's1',
      turnNo: Math.ceil(i / 2),
      role: i % 2 ? 'user' : 'assistant',
      createdAt: opts.at?.(i) ?? NOW - 100 * DAY_MS + i * 60_000,
      question: opts.questions?.includes(i) ?? false,
      prev: i > 1 ? i - 1 : null,
      next: i < n ? i + 1 : null,
    });
  }
  return facts;
}

function input(over: Partial<RankTurnsInput>): RankTurnsInput {
  return {
    facts: conversation(6),
    ftsRanks: new Map(),
    symbolHits: new Map(),
    querySymbols: [],
    timeLane: new Set(),
    cued: null,
    now: NOW,
    ranges: [],
    recentCue: false,
    config: DEFAULT_RETRIEVAL_CONFIG,
    ...over,
  };
}

const order = (ranked: ReturnType<typeof rankTurns>) => [...ranked].sort((a, b) => b.score.relevance - a.score.relevance).map((r) => r.id);

describe('rankTurns', () => {
  it('finds the reply to a matching question, though it shares no word with the query', () => {
    // 5 asks "What got you into sailing?"; 6 answers it; 1 mentions sailing in passing.
    const ranked = rankTurns(input({ facts: conversation(8, { questions: [5] }), ftsRanks: new Map([[5, -2], [1, -1.8]]) }));
    const reply = ranked.find((r) => r.id === 6);
    expect(reply?.signals.lane).toBe('neighbour');
    expect(order(ranked).indexOf(6)).toBeLessThan(order(ranked).indexOf(1));
  });

  it.each([
    { contextWindow: true, borrows: true },
    { contextWindow: false, borrows: false },
  ])('with contextWindow $contextWindow, a turn two places from a match borrows from it: $borrows', ({ contextWindow, borrows }) => {
    // 3 matches; 5 is the same person's next turn on the topic ("It was one of those evenings where I felt so small").
    const config = { ...DEFAULT_RETRIEVAL_CONFIG, contextWindow, sessionContext: false };
    const ranked = rankTurns(input({ facts: conversation(8), ftsRanks: new Map([[3, -2]]), config }));
    const two = ranked.find((r) => r.id === 5);
    expect(two !== undefined).toBe(borrows);
    if (two) expect(two.signals).toMatchObject({ lane: 'neighbour', nearby: 1, neighbour: 0 });
  });

  it('lets a turn inherit a share of its conversation’s best match (sessionContext)', () => {
    // Two equal matches; the conversation of the first also holds the best match of all.
    const facts = new Map([...conversation(4, { session: 'a' }), ...[...conversation(4, { session: 'b' })].map(([, f]) => [f.id + 10, { ...f, id: f.id + 10, prev: f.prev && f.prev + 10, next: f.next && f.next + 10 }] as const)]);
    const config = { ...DEFAULT_RETRIEVAL_CONFIG, neighbours: false };
    const ranked = rankTurns(input({ facts, ftsRanks: new Map([[1, -4], [3, -2], [13, -2]]), config }));
    expect(order(ranked)).toEqual([1, 3, 13]);
    expect(ranked.find((r) => r.id === 3)?.signals.session).toBe(1);
    expect(ranked.find((r) => r.id === 13)?.signals.session).toBeCloseTo(0.5, 10);
  });

  it.each([
    { cue: true, speaker: 2 },
    { cue: null, speaker: Math.SQRT2 },
    { cue: false, speaker: 1 },
  ] as const)('gives a turn whose cue is $cue the multiplier $speaker (an unknown side is neither)', ({ cue, speaker }) => {
    const ranked = rankTurns(input({ ftsRanks: new Map([[1, -1]]), cued: () => cue, cueBoost: 2 }));
    expect(ranked.find((r) => r.id === 1)?.signals).toMatchObject({ speaker, cue });
  });

  it('does not look at neighbours when the technique is off', () => {
    const ranked = rankTurns(input({ facts: conversation(6, { questions: [3] }), ftsRanks: new Map([[3, -2]]), config: { ...DEFAULT_RETRIEVAL_CONFIG, neighbours: false } }));
    expect(ranked.map((r) => r.id)).toEqual([3]);
  });

  it('ranks the turns of the person the question is about first', () => {
    const ranked = rankTurns(input({ ftsRanks: new Map([[1, -1], [2, -1]]), cued: (t) => t.role === 'assistant', config: { ...DEFAULT_RETRIEVAL_CONFIG, neighbours: false } }));
    expect(order(ranked)[0]).toBe(2);
    expect(ranked.find((r) => r.id === 2)?.signals.speaker).toBe(DEFAULT_RETRIEVAL_CONFIG.speakerBoost);
  });

  it('prefers the turn written in the time the question names; without a time, every turn has recency 1', () => {
    const facts = conversation(4, { at: (i) => (i <= 2 ? NOW - 1.5 * DAY_MS : NOW - 40 * DAY_MS) });
    const lexical = new Map([[1, -1], [3, -1]]);
    const timed = rankTurns(input({ facts, ftsRanks: lexical, ranges: [{ start: NOW - 2 * DAY_MS, end: NOW - DAY_MS }] }));
    expect(order(timed)[0]).toBe(1);
    expect(timed[0]?.signals.recencyBasis).toBe('time-range');
    const timeless = rankTurns(input({ facts, ftsRanks: lexical }));
    expect(timeless.every((r) => r.score.terms.recency === 1 && r.signals.recencyBasis === 'timeless')).toBe(true);
  });

  it('scores a symbol-only candidate by 002’s symbol term', () => {
    const ranked = rankTurns(input({ querySymbols: ['processPayment'], symbolHits: new Map([[5, new Map([['processpayment', 1]])]]) }));
    const hit = ranked.find((r) => r.id === 5);
    expect(hit?.signals.lane).toBe('symbol');
    expect(hit?.score.terms.symbol).toBe(1);
    expect(hit?.matchedSymbols).toEqual(['processPayment']);
  });

  it('scores context relative to the best candidate, so the best match has context 1', () => {
    const ranked = rankTurns(input({ ftsRanks: new Map([[1, -4], [3, -2]]), config: { ...DEFAULT_RETRIEVAL_CONFIG, neighbours: false, sessionContext: false } }));
    expect(ranked.find((r) => r.id === 1)?.score.terms.context).toBe(1);
    expect(ranked.find((r) => r.id === 3)?.score.terms.context).toBeCloseTo(0.5, 10);
    expect(ranked.find((r) => r.id === 3)?.signals.turnRank).toBe(2);
  });
});

describe('rankScored', () => {
  it('lists the best first, ties to the newer, and only the `top` when asked', () => {
    const facts = conversation(6);
    const evidence = scoreTurns(input({ facts, ftsRanks: new Map([[1, -1], [3, -2], [5, -2]]), config: { ...DEFAULT_RETRIEVAL_CONFIG, neighbours: false } }));
    expect(rankScored(evidence).map((r) => r.id)).toEqual([5, 3, 1]);
    expect(rankScored(evidence, { top: 2 }).map((r) => r.id)).toEqual([5, 3]);
  });
});

describe('refineHead', () => {
  it('rewards covering the question and holding what it asks for', () => {
    const facts = conversation(4);
    const head = rankTurns(input({ facts, ftsRanks: new Map([[1, -1], [3, -1]]) }));
    const refined = refineHead({
      head,
      facts,
      texts: new Map([[1, 'I have had Miso for about 8 months.'], [3, 'Miso loves her toys.']]),
      terms: [{ keyword: 'Miso', weight: 1 }, { keyword: 'had', weight: 1 }],
      answerType: 'duration',
      config: DEFAULT_RETRIEVAL_CONFIG,
    });
    expect(refined.get(1)).toMatchObject({ coverage: 1, answerType: true });
    expect(refined.get(3)).toMatchObject({ coverage: 0.5, answerType: false });
    expect(refined.get(1)!.factor).toBeGreaterThan(refined.get(3)!.factor);
    const again = rankTurns(input({ facts, ftsRanks: new Map([[1, -1], [3, -1]]), refined }));
    expect(order(again)[0]).toBe(1);
  });

  it.each([
    { text: 'I have had Miso for about 8 months now.', statement: 1 },
    { text: 'Can you suggest toys for my Miso? She has had a cold for months.', statement: 0 },
    { text: 'Miso has had fleas. I bought a new collar.', statement: 0 },
    { text: 'Miso is great. My sister has had her since May.', statement: 0.5 },
  ])('counts the question’s words the writer states in the first person: "$text" → $statement', ({ text, statement }) => {
    const facts = conversation(2);
    const head = rankTurns(input({ facts, ftsRanks: new Map([[1, -1]]) }));
    const terms = [{ keyword: 'Miso', weight: 1 }, { keyword: 'had', weight: 1 }];
    const refine = (statements: boolean) => refineHead({ head, facts, texts: new Map([[1, text]]), terms, answerType: null, config: { ...DEFAULT_RETRIEVAL_CONFIG, statements } });
    const on = refine(true).get(1)!;
    expect(on.statement).toBeCloseTo(statement, 10);
    const off = refine(false).get(1)!;
    expect(off.statement).toBeNull();
    expect(on.factor / off.factor).toBeCloseTo(1 + DEFAULT_RETRIEVAL_CONFIG.statementWeight * statement, 10);
  });
});
