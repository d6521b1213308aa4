import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../clock';
import { isPreferenceQuery, likeKeywordScore, normaliseBm25, rankScored, scoreMemory, type ScoreInput } from './score';
import { MAX_MEMORY_SCORE, MEMORY_SCORE_WEIGHTS as W } from './weights';

const NOW = Date.UTC(2026, 0, 17, 10, 30);

function input(over: Omit<Partial<ScoreInput>, 'memory'> & { memory?: Partial<ScoreInput['memory']> } = {}): ScoreInput {
  return {
    keywordScore: 0.5,
    now: NOW,
    preferenceQuery: false,
    topicKeywords: [],
    maxAccessCount: 7,
    ...over,
    memory: {
      category: 'fact',
      confidence: 0.8,
      accessCount: 3,
      lastAccessed: NOW - 7 * DAY_MS,
      createdAt: NOW - 30 * DAY_MS,
      content: '我在腾讯工作',
      key: 'fact.employer',
      tags: ['employer', '公司'],
      ...over.memory,
    },
  };
}

const sum = (w: Record<string, number>) => Object.values(w).reduce((a, b) => a + b, 0);

describe('scoreMemory (001 Relevance score calculation)', () => {
  it('computes the seed formula term by term', () => {
    const got = scoreMemory(input());
    // recency: one half-life; frequency: ln(1+3)/ln(1+7) = 2/3; category: unboosted base 1/1.5.
    expect(got.terms.keyword).toBeCloseTo(0.5, 12);
    expect(got.terms.category).toBeCloseTo(1 / 1.5, 12);
    expect(got.terms.recency).toBeCloseTo(0.5, 12);
    expect(got.terms.frequency).toBeCloseTo(2 / 3, 12);
    expect(got.terms.confidence).toBeCloseTo(0.8, 12);
    expect(got.weighted.keyword).toBeCloseTo(0.5 * 0.4, 12);
    expect(got.weighted.category).toBeCloseTo((1 / 1.5) * 0.2, 12);
    expect(got.weighted.recency).toBeCloseTo(0.5 * 0.15, 12);
    expect(got.weighted.frequency).toBeCloseTo((2 / 3) * 0.1, 12);
    expect(got.weighted.confidence).toBeCloseTo(0.8 * 0.15, 12);
    expect(got.score).toBeCloseTo(0.5 * 0.4 + (1 / 1.5) * 0.2 + 0.5 * 0.15 + (2 / 3) * 0.1 + 0.8 * 0.15, 12);
    expect(got.multipliers).toEqual({ preference: 1, topic: 1 });
  });

  it.each([
    [0, 1],
    [7, 0.5],
    [14, 0.25],
    [21, 0.125],
  ])('recency halves every 7 days: %i days since last access → %f', (days, recency) => {
    expect(scoreMemory(input({ memory: { lastAccessed: NOW - days * DAY_MS } })).terms.recency).toBeCloseTo(recency, 12);
  });

  it('a memory never accessed decays from its creation', () => {
    const got = scoreMemory(input({ memory: { lastAccessed: null, accessCount: 0, createdAt: NOW - 7 * DAY_MS } }));
    expect(got.terms.recency).toBeCloseTo(0.5, 12);
    expect(got.terms.frequency).toBe(0);
    expect(got.notes).toEqual(expect.arrayContaining(['recency-from-created-at', 'never-accessed']));
  });

  it('frequency is log-normalised: the most used candidate scores 1, none → 0', () => {
    expect(scoreMemory(input({ memory: { accessCount: 7 } })).terms.frequency).toBeCloseTo(1, 12);
    expect(scoreMemory(input({ maxAccessCount: 0, memory: { accessCount: 0 } })).terms.frequency).toBe(0);
  });

  it('001 Category-based candidate recall: ×1.5 category_boost for preferences in a preference query', () => {
    const pref = { category: 'preference' as const };
    const boosted = scoreMemory(input({ preferenceQuery: true, memory: pref }));
    const plain = scoreMemory(input({ preferenceQuery: false, memory: pref }));
    expect(boosted.terms.category / plain.terms.category).toBeCloseTo(W.preferenceBoost, 12);
    expect(boosted.weighted.category).toBeCloseTo(W.category, 12);
    expect(boosted.multipliers.preference).toBe(1.5);
    expect(boosted.notes).toContain('preference-boost');
    // Only preferences are boosted: a fact in the same query scores as it always does.
    expect(scoreMemory(input({ preferenceQuery: true })).score).toBeCloseTo(scoreMemory(input()).score, 12);
  });

  it('001 Working memory context boost: ×1.3 for memories about the current topic', () => {
    const about = scoreMemory(input({ topicKeywords: ['腾讯'] }));
    const viaTag = scoreMemory(input({ topicKeywords: ['Employer'] }));
    const plain = scoreMemory(input({ topicKeywords: ['天气'] }));
    expect(about.score / plain.score).toBeCloseTo(W.topicBoost, 12);
    expect(viaTag.multipliers.topic).toBe(1.3);
    expect(plain.multipliers.topic).toBe(1);
    expect(about.notes).toContain('topic-boost');
  });

  it('every explanation adds up to its score, and scores stay within 0..1.3', () => {
    const memory = fc.record({
      category: fc.constantFrom('preference' as const, 'fact' as const, 'pattern' as const),
      confidence: fc.double({ min: -1, max: 2, noNaN: true }),
      accessCount: fc.integer({ min: 0, max: 10_000 }),
      lastAccessed: fc.option(fc.integer({ min: NOW - 3650 * DAY_MS, max: NOW + DAY_MS })),
      createdAt: fc.integer({ min: NOW - 3650 * DAY_MS, max: NOW }),
      content: fc.string(),
      key: fc.constant('preference.food.coffee'),
      tags: fc.array(fc.string(), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        memory,
        fc.double({ min: -2, max: 3, noNaN: true }),
        fc.boolean(),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.integer({ min: 0, max: 10_000 }),
        (m, keywordScore, preferenceQuery, topicKeywords, maxAccessCount) => {
          const got = scoreMemory({ memory: m, keywordScore, preferenceQuery, topicKeywords, maxAccessCount, now: NOW });
          expect(got.score).toBeCloseTo(sum(got.weighted) * got.multipliers.topic, 12);
          expect(got.score).toBeGreaterThanOrEqual(0);
          expect(got.score).toBeLessThanOrEqual(MAX_MEMORY_SCORE + 1e-12);
          for (const t of Object.values(got.terms)) expect(t >= 0 && t <= 1).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('keyword scores (001 Keyword matching with SQLite FTS / Fallback to LIKE matching)', () => {
  it('normalises bm25 ranks (negative, lower is better) against the best candidate', () => {
    expect(normaliseBm25([-4, -2, -1])).toEqual([1, 0.5, 0.25]);
    expect(normaliseBm25([-1e-6, -1e-6])).toEqual([1, 1]);
    // Tiny corpora give 0 (IDF clamp): FTS still matched them, so none is worse than another.
    expect(normaliseBm25([0, 0, 0])).toEqual([1, 1, 1]);
    expect(normaliseBm25([-3, Number.NaN])).toEqual([1, 0]);
  });

  it('LIKE fallback: matched keywords / total keywords', () => {
    const keywords = ['Python', '代码', '喜欢'];
    expect(likeKeywordScore('我喜欢用 Python 写代码', keywords)).toBe(1);
    expect(likeKeywordScore('I write python every day', keywords)).toBeCloseTo(1 / 3, 12);
    expect(likeKeywordScore('我在腾讯工作', keywords)).toBe(0);
    expect(likeKeywordScore('我在腾讯工作', [])).toBe(0);
    expect(likeKeywordScore('Python', ['python', 'PYTHON'])).toBe(1);
  });
});

describe('001 Empty retrieval result', () => {
  it('an empty candidate list is harmless', () => {
    expect(normaliseBm25([])).toEqual([]);
    expect(rankScored([], 5)).toEqual([]);
  });

  it('ranks best first and returns at most N', () => {
    const a = { memory: { createdAt: 1 }, explanation: scoreMemory(input({ keywordScore: 0.9 })) };
    const b = { memory: { createdAt: 2 }, explanation: scoreMemory(input({ keywordScore: 0.1 })) };
    const c = { memory: { createdAt: 3 }, explanation: scoreMemory(input({ keywordScore: 0.5 })) };
    expect(rankScored([b, c, a], 2)).toEqual([a, c]);
  });
});

describe('isPreferenceQuery', () => {
  it.each([
    ['我喜欢用 Python 写代码', true],
    ['你觉得我会喜欢哪部电影？', true],
    ['给我推荐一家咖啡店', true],
    ['What do I like to drink?', true],
    ['Which editor do I prefer?', true],
    ['my favourite band', true],
    ['今天北京天气怎么样', false],
    ['How do I fix this TypeScript error?', false],
    ['写一个快速排序', false],
  ])('%s → %s', (query, expected) => {
    expect(isPreferenceQuery(query)).toBe(expected);
  });
});
