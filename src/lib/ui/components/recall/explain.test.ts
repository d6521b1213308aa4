import { describe, expect, it } from 'vitest';
import { recallScore } from '../../../domain/recall/score';
import { QUIET_SIGNALS } from '../../../domain/recall/testing';
import { explainRows, formatScore, rankedBy, signalLines } from './explain';

describe('explainRows', () => {
  it.each([
    { symbol: 1, recency: 0.5, context: 0.2 },
    { symbol: 0, recency: 1, context: 0 },
    { symbol: 0.25, recency: 0.75, context: 1 },
  ])('the rows add up to the relevance shown (%o)', (terms) => {
    const score = recallScore(terms);
    const rows = explainRows(score);
    expect(rows.map((r) => r.term)).toEqual(['symbol', 'recency', 'context']);
    for (const row of rows) expect(row.contribution).toBeCloseTo(row.score * row.weight, 10);
    expect(rows.reduce((sum, r) => sum + r.contribution, 0)).toBeCloseTo(score.relevance, 10);
  });

  it('weighs symbol matches most, as seed 002 does', () => {
    const [symbol, recency, context] = explainRows(recallScore({ symbol: 1, recency: 1, context: 1 }));
    expect(symbol!.weight).toBeGreaterThan(recency!.weight);
    expect(recency!.weight).toBe(context!.weight);
  });
});

describe('formatScore', () => {
  it.each([
    { value: 0.923, locale: 'en', want: '0.92' },
    { value: 1, locale: 'zh-CN', want: '1.00' },
    { value: NaN, locale: 'en', want: '—' },
  ])('$value → $want', ({ value, locale, want }) => {
    expect(formatScore(value, locale)).toBe(want);
  });
});

describe('signalLines', () => {
  const base = QUIET_SIGNALS;
  it.each([
    [{ ...base }, ['lane.text', 'recency.timeless']],
    [{ ...base, lane: 'neighbour', neighbour: 0.8, turnRank: 2 }, ['lane.neighbour', 'neighbour', 'turnRank', 'recency.timeless']],
    [{ ...base, lexical: 1, speaker: 2, cue: true, turnRank: 1, recencyBasis: 'time-range' }, ['lane.text', 'lexical', 'speaker', 'turnRank', 'recency.time-range']],
    [{ ...base, coverage: 0.5, answerType: false, recencyBasis: 'age' }, ['lane.text', 'coverage', 'answerType.no', 'recency.age']],
    [{ ...base, lane: 'neighbour', nearby: 0.9, session: 1, speaker: Math.SQRT2, cue: null }, ['lane.neighbour', 'nearby', 'session', 'speakerUnknown', 'recency.timeless']],
    [{ ...base, lexical: 0.6, coverage: 0.8, statement: 0.5, recencyBasis: 'recent' }, ['lane.text', 'lexical', 'coverage', 'statement', 'recency.recent']],
    [{ ...base, lexical: 0.6, statement: 0 }, ['lane.text', 'lexical', 'recency.timeless']],
    [{ ...base, lexical: 0.6, semantic: 0.5, semanticRank: 3 }, ['lane.text', 'lexical', 'semantic', 'recency.timeless']],
    [{ ...base, lexical: 0.6, semantic: 0.5, semanticRank: null }, ['lane.text', 'lexical', 'recency.timeless']],
  ] as const)('shows only the signals that acted (%#)', (signals, keys) => {
    expect(signalLines(signals, 'en').map((l) => l.key)).toEqual(keys);
  });

  it('names the multiplier of an unknown side as it was applied', () => {
    const line = signalLines({ ...base, speaker: Math.SQRT2, cue: null }, 'en').find((l) => l.key === 'speakerUnknown');
    expect(line?.params).toEqual({ value: 1.41 });
  });

  it('names a turn found by meaning, with its cosine and its place by meaning', () => {
    const lines = signalLines({ ...base, lane: 'semantic', semantic: 0.734, semanticRank: 2 }, 'en');
    expect(lines.map((l) => l.key)).toEqual(['lane.semantic', 'semantic', 'recency.timeless']);
    expect(lines[1]?.params).toEqual({ value: '0.73', rank: 2 });
  });

  it('formats shares for the locale', () => {
    const [, lexical] = signalLines({ ...base, lexical: 0.5 }, 'zh-CN');
    expect(lexical?.params).toEqual({ value: '0.50' });
  });
});

describe('rankedBy', () => {
  const signals = { ...QUIET_SIGNALS, lexical: 0.8, turnRank: 1 };
  const weighted = (symbol: number, context: number) => recallScore({ symbol, recency: 1, context }).weighted;
  it.each([
    ['a symbol match that outweighs the words', weighted(1, 0.5), signals, 'symbol'],
    ['words that outweigh a weak symbol match', weighted(0.2, 1), signals, 'words'],
    ['a turn found only by the time asked about', weighted(0, 0), { ...signals, lane: 'time', lexical: 0 }, 'time'],
    ['a reply that borrowed more than its own words give', weighted(0, 0.9), { ...signals, lane: 'neighbour', lexical: 0, neighbour: 1 }, 'neighbour'],
    ['its own words', weighted(0, 1), { ...signals, neighbour: 0.5 }, 'words'],
    ['the same person two turns earlier', weighted(0, 0.7), { ...signals, lane: 'neighbour', lexical: 0, nearby: 0.9 }, 'neighbour'],
  ] as const)('%s → %s', (_, w, s, want) => {
    expect(rankedBy({ weighted: w, signals: s })).toBe(want);
  });
});
