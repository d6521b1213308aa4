import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyOutcome, feedbackActionOf, importanceOf, normalisedEditDistance, SIGNAL_TABLE, valenceOf } from './signals';

const TEN = 'abcdefghij';

describe('003 implicit feedback, one row per signal', () => {
  it.each([
    { name: 'accepted unchanged', input: { candidates: [TEN], selectedIndex: 0, finalText: TEN }, signal: 'strong-positive', level: 'high', valence: 0.8, distance: 0 },
    { name: 'accepted, no final text given', input: { candidates: ['a', TEN], selectedIndex: 1 }, signal: 'strong-positive', level: 'high', valence: 0.8, distance: 0 },
    { name: 'small edit, 10 % (< 20 %)', input: { candidates: [TEN], selectedIndex: 0, finalText: 'abcdefghiX' }, signal: 'weak-positive', level: 'medium', valence: 0.5, distance: 0.1 },
    { name: '20 % is not below 20 %', input: { candidates: [TEN], selectedIndex: 0, finalText: 'abcdefghXY' }, signal: 'mixed', level: 'low', valence: 0, distance: 0.2 },
    { name: '60 % is not above 60 %', input: { candidates: [TEN], selectedIndex: 0, finalText: 'abcdUVWXYZ' }, signal: 'mixed', level: 'low', valence: 0, distance: 0.6 },
    { name: 'large rewrite, 70 % (> 60 %)', input: { candidates: [TEN], selectedIndex: 0, finalText: 'abcTUVWXYZ' }, signal: 'weak-negative', level: 'medium', valence: -0.5, distance: 0.7 },
    { name: 'every candidate rejected', input: { candidates: [TEN, 'x', 'y'], selectedIndex: -1 }, signal: 'strong-negative', level: 'high', valence: -0.8, distance: null },
  ] as const)('$name → $signal ($level)', ({ input, signal, level, valence, distance }) => {
    const got = classifyOutcome(input);
    expect(got).toEqual({ signal, editDistance: distance });
    expect(SIGNAL_TABLE[got.signal].level).toBe(level);
    expect(valenceOf(got.signal)).toBe(valence);
  });

  it('an undo of an accepted output is the delayed negative, the highest weight of all', () => {
    const weights = Object.values(SIGNAL_TABLE).map((s) => s.weight);
    expect(SIGNAL_TABLE['delayed-negative']).toEqual({ level: 'highest', weight: 1, valence: -1 });
    expect(Math.max(...weights)).toBe(1);
    expect(weights.filter((w) => w === 1)).toHaveLength(1);
    expect(valenceOf('delayed-negative')).toBe(-1);
  });

  it('the same skill on one scene type accumulates: low alone, high after repeats, capped', () => {
    expect(valenceOf('scene-skill-preference', 1)).toBe(0.2);
    expect(valenceOf('scene-skill-preference', 3)).toBe(0.6);
    expect(valenceOf('scene-skill-preference', 9)).toBe(0.8);
    expect(SIGNAL_TABLE['scene-skill-preference'].level).toBe('low');
  });

  it('importance follows the weight, a little more with a written reason', () => {
    expect(importanceOf('delayed-negative')).toBe(1);
    expect(importanceOf('weak-positive')).toBe(0.5);
    expect(importanceOf('weak-positive', { explicit: '太啰嗦了' })).toBe(0.6);
    expect(importanceOf('mixed')).toBe(0.2);
  });

  it('maps each signal to the 004 audit action', () => {
    expect(feedbackActionOf('strong-positive')).toBe('accept');
    expect(feedbackActionOf('weak-negative')).toBe('partial');
    expect(feedbackActionOf('delayed-negative')).toBe('reject');
    expect(feedbackActionOf('strong-negative')).toBe('reject');
  });
});

describe('edit distance', () => {
  it.each([
    { output: 'kitten', final: 'sitting', want: 0.429 },
    { output: '他走进院子。', final: '他快步走进院子。', want: 0.25 },
    { output: '', final: '', want: 0 },
  ])('$output → $final = $want', ({ output, final, want }) => expect(normalisedEditDistance(output, final)).toBe(want));

  it('is symmetric, within 0..1, and 0 only for equal texts (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (a, b) => {
        const d = normalisedEditDistance(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(1);
        expect(normalisedEditDistance(b, a)).toBe(d);
        expect(d === 0).toBe(a === b);
      }),
    );
  });
});
