import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffSegments, sideOf } from './diff-segments';

describe('diff of a selection against a skill result', () => {
  it.each([
    { name: 'identical text', before: 'The cat sat.', after: 'The cat sat.', want: [{ kind: 'same', text: 'The cat sat.' }] },
    { name: 'nothing on either side', before: '', after: '', want: [] },
    {
      name: 'one English word replaced, spaces kept',
      before: 'The cat sat on the mat.',
      after: 'The dog sat on the mat.',
      want: [
        { kind: 'same', text: 'The ' },
        { kind: 'removed', text: 'cat' },
        { kind: 'added', text: 'dog' },
        { kind: 'same', text: ' sat on the mat.' },
      ],
    },
    {
      name: 'Chinese compared character by character (no spaces between words)',
      before: '他慢慢地走进院子。',
      after: '他快步走进院子。',
      want: [
        { kind: 'same', text: '他' },
        { kind: 'removed', text: '慢慢地' },
        { kind: 'added', text: '快步' },
        { kind: 'same', text: '走进院子。' },
      ],
    },
    { name: 'a continuation is all added', before: '', after: 'Then the rain came.', want: [{ kind: 'added', text: 'Then the rain came.' }] },
  ])('$name', ({ before, after, want }) => {
    expect(diffSegments(before, after)).toEqual(want);
  });

  it('keeps markup-like text as plain text segments', () => {
    const segs = diffSegments('a <b>bold</b> word', 'a <img src=x onerror=alert(1)> word');
    expect(sideOf(segs, 'after')).toBe('a <img src=x onerror=alert(1)> word');
    expect(segs.some((s) => s.kind === 'added' && s.text.includes('img'))).toBe(true);
    expect(sideOf(segs, 'before')).toBe('a <b>bold</b> word');
  });

  it('rebuilds both texts exactly from the segments (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const segs = diffSegments(a, b);
        expect(sideOf(segs, 'before')).toBe(a);
        expect(sideOf(segs, 'after')).toBe(b);
        for (let i = 1; i < segs.length; i++) expect(segs[i]!.kind === segs[i - 1]!.kind && segs[i]!.kind === 'same').toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});
