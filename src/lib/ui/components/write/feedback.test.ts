import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyFeedback, normalisedEditDistance } from './feedback';

describe('edit distance between the output and what the user kept', () => {
  it.each([
    { output: 'abc', final: 'abc', want: 0 },
    { output: '', final: '', want: 0 },
    { output: 'abcd', final: 'abcx', want: 0.25 },
    { output: 'abc', final: '', want: 1 },
    { output: 'kitten', final: 'sitting', want: 0.429 },
    { output: '他走进院子。', final: '他快步走进院子。', want: 0.25 },
  ])('$output → $final = $want', ({ output, final, want }) => {
    expect(normalisedEditDistance(output, final)).toBe(want);
  });

  it('is symmetric and stays within 0..1 (property)', () => {
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

describe('003 implicit feedback signals', () => {
  const ten = 'abcdefghij';
  it.each([
    { name: 'accepted unchanged', outcome: { kind: 'kept', output: ten, final: ten }, action: 'accept', signal: 'strong-positive' },
    { name: 'one character in ten changed (10 %)', outcome: { kind: 'kept', output: ten, final: 'abcdefghiX' }, action: 'partial', signal: 'weak-positive' },
    { name: 'two in ten (20 %, not below 20 %)', outcome: { kind: 'kept', output: ten, final: 'abcdefghXY' }, action: 'partial', signal: 'mixed' },
    { name: 'six in ten (60 %, not above 60 %)', outcome: { kind: 'kept', output: ten, final: 'abcdUVWXYZ' }, action: 'partial', signal: 'mixed' },
    { name: 'seven in ten (70 %)', outcome: { kind: 'kept', output: ten, final: 'abcTUVWXYZ' }, action: 'partial', signal: 'weak-negative' },
    { name: 'rejected', outcome: { kind: 'rejected' }, action: 'reject', signal: 'strong-negative' },
    { name: 'undone after accepting', outcome: { kind: 'undone' }, action: 'reject', signal: 'delayed-negative' },
  ] as const)('$name → $action, $signal', ({ outcome, action, signal }) => {
    const got = classifyFeedback(outcome);
    expect(got.action).toBe(action);
    expect(got.signal).toBe(signal);
  });

  it('sends the distance with an edit and none with a reject', () => {
    expect(classifyFeedback({ kind: 'kept', output: ten, final: 'abcdefghiX' }).editDistance).toBe(0.1);
    expect(classifyFeedback({ kind: 'rejected' }).editDistance).toBeNull();
  });
});
