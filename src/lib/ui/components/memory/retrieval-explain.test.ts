import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../domain/clock';
import { scoreMemory, type ScoreInput } from '../../../domain/memory/score';
import { baseScore, extraNotes, keywordPartRows, multiplierRows, termRows, topicWordRows } from './retrieval-explain';

const NOW = 1_000 * DAY_MS;
const input = (over: Partial<ScoreInput> = {}): ScoreInput => ({
  keywordScore: 1,
  memory: { category: 'preference', confidence: 0.9, accessCount: 2, lastAccessed: NOW - 7 * DAY_MS, createdAt: NOW - 30 * DAY_MS, content: 'I like oolong tea', key: 'preference.drink.tea', tags: [] },
  now: NOW,
  preferenceQuery: false,
  topicKeywords: [],
  maxAccessCount: 4,
  ...over,
});

describe('retrieval "why" rows', () => {
  it('lists the five seed 001 terms with their weights, and the contributions add up to the score', () => {
    const score = scoreMemory(input());
    const rows = termRows(score);
    expect(rows.map((r) => [r.term, r.weight])).toEqual([
      ['keyword', 0.4],
      ['category', 0.2],
      ['recency', 0.15],
      ['frequency', 0.1],
      ['confidence', 0.15],
    ]);
    for (const row of rows) expect(row.contribution).toBeCloseTo(row.value * row.weight, 10);
    expect(rows.find((r) => r.term === 'recency')!.value).toBeCloseTo(0.5, 10);
    expect(baseScore(score)).toBeCloseTo(score.score, 10);
  });

  it.each([
    { name: 'neither boost', over: {}, preference: false, topic: false },
    { name: 'a preference question', over: { preferenceQuery: true }, preference: true, topic: false },
    { name: 'the current topic', over: { topicKeywords: ['tea'] }, preference: false, topic: true },
  ])('shows which multiplier applied: $name', ({ over, preference, topic }) => {
    const score = scoreMemory(input(over));
    const rows = multiplierRows(score);
    expect(rows).toEqual([
      { name: 'preference', value: preference ? 1.5 : 1, boost: 1.5, applied: preference },
      { name: 'topic', value: topic ? 1.3 : 1, boost: 1.3, applied: topic },
    ]);
    expect(score.score).toBeCloseTo(baseScore(score) * rows[1]!.value, 10);
  });

  it('keeps the notes the boost rows do not already say', () => {
    const score = scoreMemory(input({ keywordScore: 0, preferenceQuery: true, memory: { ...input().memory, lastAccessed: null, accessCount: 0 } }));
    expect(extraNotes(score.notes)).toEqual(['no-keyword-match', 'recency-from-created-at', 'never-accessed']);
  });
});

describe('keywordPartRows', () => {
  it.each([
    [{ message: 0.6, dialogue: 0.1, semantic: 0.25 }, ['message', 'dialogue', 'semantic']],
    [{ dialogue: 0.25 }, ['dialogue']],
    [{ message: 0, semantic: 0.25 }, ['semantic']],
    [undefined, []],
  ])('lists the views that found the memory, in a fixed order (%#)', (keywordParts, views) => {
    expect(keywordPartRows({ keywordParts }).map((r) => r.view)).toEqual(views);
  });
});

describe('topicWordRows', () => {
  it('names the topic words behind the boost and where each came from, the current topic’s first', () => {
    const score = { ...scoreMemory(input({ topicKeywords: ['tea', 'oolong'] })), topicWords: [{ word: 'oolong', opener: true }, { word: 'tea', opener: false }] };
    expect(topicWordRows(score)).toEqual([
      { word: 'tea', source: 'topic' },
      { word: 'oolong', source: 'opener' },
    ]);
  });

  it('is empty when the boost did not apply', () => {
    expect(topicWordRows(scoreMemory(input()))).toEqual([]);
  });
});

