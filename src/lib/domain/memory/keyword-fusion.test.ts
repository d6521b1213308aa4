import { describe, expect, it } from 'vitest';
import { dialogueWeight, fuseKeywordScores, fuseWithMeaning, weighByStrength } from './keyword-fusion';

describe('dialogueWeight', () => {
  it('weighs earlier turns less, all of them together less than the message itself', () => {
    expect([1, 2, 3].map((n) => dialogueWeight(n))).toEqual([1 / 4, 1 / 9, 1 / 16]);
    expect(dialogueWeight(1, 1)).toBe(1 / 2);
    const sum = Array.from({ length: 50 }, (_, i) => dialogueWeight(i + 1)).reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThan(1);
  });
});

describe('fuseKeywordScores', () => {
  it('sums the views with their weights and scales the best memory to 1, keeping each view’s share', () => {
    const fused = fuseKeywordScores([
      { view: 'message', weight: 1, scores: new Map([['a', 1], ['b', 0.5]]) },
      { view: 'dialogue', weight: 0.25, scores: new Map([['b', 1], ['c', 1]]) },
      { view: 'message', weight: 0.25, scores: new Map([['c', 1]]) },
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
    const [message, dialogue, other] = weighByStrength([
      { view: 'message', weight: 1, scores: one, best: 0.5 },
      { view: 'dialogue', weight: 0.25, scores: one, best: 8 },
      { view: 'semantic', weight: 0.25, scores: one },
    ]);
    expect(message?.weight).toBeCloseTo(0.25, 10);
    expect(dialogue?.weight).toBe(0.25);
    expect(other?.weight).toBe(0.25);
    // the power is RetrievalConfig.strengthPower: 1 is linear, 0 switches the scaling off
    expect(weighByStrength([{ view: 'message', weight: 1, scores: one, best: 0.5 }, { view: 'dialogue', weight: 1, scores: one, best: 8 }], 1)[0]?.weight).toBeCloseTo(0.0625, 10);
  });

  it('changes nothing when no view matched', () => {
    const parts = [{ view: 'message' as const, weight: 1, scores: new Map<string, number>(), best: 0 }];
    expect(weighByStrength(parts)).toEqual(parts);
  });
});

describe('fuseWithMeaning', () => {
  it('fuses keyword and meaning ranks, scales the best to 1, and gives a memory found by meaning alone a score', () => {
    const fused = fuseWithMeaning(new Map([['a', 1], ['b', 0.4]]), new Map([['c', 0.8], ['a', 0.5]]), { weight: 1, k: 60 });
    // a: keyword rank 1 + meaning rank 2; b: keyword rank 2 only; c: meaning rank 1 only
    expect(fused.get('a')?.keywordScore).toBe(1);
    expect(fused.get('c')?.keywordScore).toBeGreaterThan(0);
    // meaning rank 1 (1/61) outweighs keyword rank 2 (1/62): each ranking counts alike at weight 1
    expect(fused.get('c')?.keywordScore).toBeGreaterThan(fused.get('b')?.keywordScore ?? 1);
    expect(fused.get('b')?.parts).toEqual({});
    expect(fused.get('c')?.parts.semantic).toBeGreaterThan(0);
  });

  it('is keyword_score alone (re-ranked) when the meaning weight is 0', () => {
    const fused = fuseWithMeaning(new Map([['a', 1], ['b', 0.4]]), new Map([['c', 0.8]]), { weight: 0, k: 60 });
    expect(fused.has('c')).toBe(false);
    expect(fused.get('a')?.keywordScore).toBe(1);
  });
});
