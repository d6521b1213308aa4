import { describe, expect, it } from 'vitest';
import { dialogueWeight, emotionWords, fuseKeywordScores, STRENGTH_POWER, weighByStrength } from './keyword-fusion';

describe('dialogueWeight', () => {
  it('weighs earlier turns less, all of them together less than the message itself', () => {
    expect([1, 2, 3].map(dialogueWeight)).toEqual([1 / 4, 1 / 9, 1 / 16]);
    const sum = Array.from({ length: 50 }, (_, i) => dialogueWeight(i + 1)).reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThan(1);
  });
});

describe('fuseKeywordScores', () => {
  it('sums the views with their weights and scales the best memory to 1, keeping each view’s share', () => {
    const fused = fuseKeywordScores([
      { view: 'message', weight: 1, scores: new Map([['a', 1], ['b', 0.5]]) },
      { view: 'dialogue', weight: 0.25, scores: new Map([['b', 1], ['c', 1]]) },
      { view: 'emotion', weight: 0.25, scores: new Map([['c', 1]]) },
    ]);
    expect(fused.get('a')?.keywordScore).toBe(1);
    expect(fused.get('b')?.keywordScore).toBeCloseTo(0.75, 10);
    expect(fused.get('c')?.keywordScore).toBeCloseTo(0.5, 10);
    expect(fused.get('b')?.parts).toEqual({ message: 0.5, dialogue: 0.25 });
  });

  it('leaves out memories no view found', () => {
    expect(fuseKeywordScores([{ view: 'message', weight: 1, scores: new Map([['a', 0]]) }]).size).toBe(0);
  });
});

describe('weighByStrength', () => {
  const one = new Map([['a', 1]]);
  it('scales each lexical view by the root of its best bm25 over the strongest view’s; the strongest keeps its weight', () => {
    const [message, dialogue, mood] = weighByStrength([
      { view: 'message', weight: 1, scores: one, best: 0.5 },
      { view: 'dialogue', weight: 0.25, scores: one, best: 8 },
      { view: 'emotion', weight: 0.25, scores: one },
    ]);
    expect(STRENGTH_POWER).toBe(0.5);
    expect(message?.weight).toBeCloseTo(0.25, 10);
    expect(dialogue?.weight).toBe(0.25);
    expect(mood?.weight).toBe(0.25);
  });

  it('changes nothing when no view matched', () => {
    const parts = [{ view: 'message' as const, weight: 1, scores: new Map<string, number>(), best: 0 }];
    expect(weighByStrength(parts)).toEqual(parts);
  });
});

describe('emotionWords', () => {
  it.each([
    ['joy', '开心'],
    ['anxiety', '焦虑'],
    ['sadness', '失望'],
    ['anxiety', 'worried'],
  ] as const)('%s includes %s', (emotion, word) => {
    expect(emotionWords(emotion)).toContain(word);
  });
  it('has nothing to match for a neutral or unknown mood', () => {
    expect(emotionWords('neutral')).toEqual([]);
    expect(emotionWords(null)).toEqual([]);
  });
});
