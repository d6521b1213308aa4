import { describe, expect, it } from 'vitest';
import type { StoredFeedback } from '../store/feedback-repo';
import { computeFeatures, learnPreferences, MIN_VOTES, wilsonLower } from './preference-learner';

let seq = 0;
function event(action: StoredFeedback['action'], features: StoredFeedback['features']): StoredFeedback {
  seq++;
  return { id: `e${seq}`, runId: `r${seq}`, skillId: 'polish', projectId: null, action, sampleRefs: [], editDistance: null, createdAt: seq, features };
}
const learn = (events: StoredFeedback[]) => learnPreferences({ skillId: 'polish', events, checkpoint: () => {} });
const byKey = (events: StoredFeedback[], key: string) => learn(events).find((p) => p.key === `skill.polish.${key}`);

describe('computeFeatures', () => {
  it.each([
    ['短句。很短。', 10, { exclamation: false, sentenceLength: 3, lengthRatio: 0.6 }],
    ['Go! Now!', 4, { exclamation: true, sentenceLength: 3.5, lengthRatio: 2 }],
    ['没有输入长度', null, { exclamation: false, sentenceLength: 6 }],
    ['   ', 10, {}],
    [undefined, 10, {}],
  ] as const)('%j (input %s chars) → %j', (text, inputChars, expected) => {
    expect(computeFeatures({ text, inputChars })).toEqual(expected);
  });
});

describe('wilsonLower', () => {
  it.each([
    [0, 0, 0],
    [5, 5, 0.753],
    [10, 10, 0.859],
    [35, 50, 0.609],
  ])('%i of %i → %f', (k, n, expected) => {
    expect(wilsonLower(k, n)).toBeCloseTo(expected, 2);
  });
});

describe('learnPreferences', () => {
  const shortAccepted = () => event('accept', { lengthRatio: 0.5, exclamation: false, sentenceLength: 8 });
  const longRejected = () => event('reject', { lengthRatio: 1.6, exclamation: true, sentenceLength: 30 });

  it(`needs ${MIN_VOTES} votes before it proposes anything`, () => {
    expect(learn([shortAccepted(), shortAccepted(), longRejected(), shortAccepted()])).toEqual([]);
  });

  it('accepting shorter and rejecting longer results proposes "shorter", with every event as support', () => {
    const events = [shortAccepted(), longRejected(), shortAccepted(), shortAccepted(), longRejected()];
    const p = byKey(events, 'length');
    expect(p).toMatchObject({ category: 'structure', confidence: 0.75, contradicting: [] });
    expect(p?.rule).toContain('更短');
    expect(p?.supporting).toEqual(events.map((e) => e.id));
    expect(byKey(events, 'exclamation')?.rule).toContain('避免使用感叹号');
    expect(byKey(events, 'sentence-length')?.rule).toContain('偏好短句（平均 < 20 字）');
  });

  it('the opposite evidence proposes the opposite rule under the same key', () => {
    const events = Array.from({ length: 6 }, (_, i) => event(i % 2 ? 'reject' : 'accept', { lengthRatio: i % 2 ? 0.5 : 1.5 }));
    expect(byKey(events, 'length')?.rule).toContain('更长');
  });

  it.each([
    ['split evidence stays below the confidence floor', [0.5, 0.5, 0.5, 1.5, 1.5, 1.5].map((r) => event('accept', { lengthRatio: r }))],
    ['ratios near 1 are no votes', [0.95, 1.05, 1, 0.92, 1.08, 1].map((r) => event('accept', { lengthRatio: r }))],
    ['one exclamation mark is no contrast', [true, false, false, false, false].map((x) => event('accept', { exclamation: x }))],
  ])('%s', (_name, events) => {
    expect(learn(events)).toEqual([]);
  });

  it('stops at the caller’s checkpoint (the time budget)', () => {
    const events = [shortAccepted(), longRejected(), shortAccepted(), shortAccepted(), longRejected()];
    let calls = 0;
    const checkpoint = () => {
      if (++calls > 2) throw new Error('budget');
    };
    expect(() => learnPreferences({ skillId: 'polish', events, checkpoint })).toThrow('budget');
  });
});
