import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trimSurrounding } from './surrounding';

// Lengths below are in code points, counted by hand from the strings.
const ZH_BEFORE = '春天来了。花开了。\n他走进院子，看见一只猫。猫看着他。'; // 9 + 1 + 17 = 27
const ZH_AFTER = '门开了。风吹进来。\n\n她站起来，走到窗前。外面下着雨'; // 9 + 2 + 15 = 26
const EN_BEFORE = 'The ship docked at noon. Nobody came out.\n\nShe waited by the gate. Then she knocked twice.'; // 41 + 2 + 47

type Row = {
  name: string;
  before?: string;
  after?: string;
  limit: number;
  want: { before?: string; after?: string; beforeRemoved?: number; afterRemoved?: number; boundary: 'none' | 'paragraph' | 'sentence' };
};

const rows: Row[] = [
  { name: 'zh: fits → untouched', before: ZH_BEFORE, limit: 100, want: { before: ZH_BEFORE, beforeRemoved: 0, boundary: 'none' } },
  {
    name: 'zh: nearest paragraph fits → cut at the paragraph',
    before: ZH_BEFORE,
    limit: 20,
    want: { before: '他走进院子，看见一只猫。猫看着他。', beforeRemoved: 10, boundary: 'paragraph' },
  },
  {
    name: 'zh: nearest paragraph too long → nearest sentence (a comma is no boundary)',
    before: ZH_BEFORE,
    limit: 10,
    want: { before: '猫看着他。', beforeRemoved: 22, boundary: 'sentence' },
  },
  { name: 'zh: not even one sentence fits → nothing', before: ZH_BEFORE, limit: 4, want: { before: '', beforeRemoved: 27, boundary: 'sentence' } },
  {
    name: 'zh after: keep the first paragraph',
    after: ZH_AFTER,
    limit: 12,
    want: { after: '门开了。风吹进来。', afterRemoved: 17, boundary: 'paragraph' },
  },
  {
    name: 'zh after: paragraph boundaries win over a longer sentence cut',
    after: ZH_AFTER,
    limit: 24,
    want: { after: '门开了。风吹进来。', afterRemoved: 17, boundary: 'paragraph' },
  },
  { name: 'zh after: first paragraph too long → first sentence', after: ZH_AFTER, limit: 5, want: { after: '门开了。', afterRemoved: 22, boundary: 'sentence' } },
  { name: 'zh after: first sentence too long → nothing', after: ZH_AFTER, limit: 3, want: { after: '', afterRemoved: 26, boundary: 'sentence' } },
  {
    name: 'zh after: closing quote stays with its sentence',
    after: '“快走！”他喊道。我们跑了起来。',
    limit: 6,
    want: { after: '“快走！”', afterRemoved: 11, boundary: 'sentence' },
  },
  { name: 'zh after: an ellipsis ends a sentence', after: '他停了下来……然后笑了。', limit: 8, want: { after: '他停了下来……', afterRemoved: 5, boundary: 'sentence' } },
  {
    name: 'en: nearest paragraph fits',
    before: EN_BEFORE,
    limit: 60,
    want: { before: 'She waited by the gate. Then she knocked twice.', beforeRemoved: 43, boundary: 'paragraph' },
  },
  { name: 'en: sentence fallback', before: EN_BEFORE, limit: 30, want: { before: 'Then she knocked twice.', beforeRemoved: 67, boundary: 'sentence' } },
  {
    name: 'en: a period inside a number is no boundary',
    after: 'The price rose 3.5 percent this year. It fell later.',
    limit: 20,
    want: { after: '', afterRemoved: 52, boundary: 'sentence' },
  },
  {
    name: 'en: the first sentence when the second does not fit',
    after: 'The price rose 3.5 percent this year. It fell later.',
    limit: 45,
    want: { after: 'The price rose 3.5 percent this year.', afterRemoved: 15, boundary: 'sentence' },
  },
  { name: 'en: quote after the period', before: 'He said, "Go now." She ran.', limit: 12, want: { before: 'She ran.', beforeRemoved: 19, boundary: 'sentence' } },
  {
    name: 'en: a soft line break inside a sentence is no paragraph',
    before: 'The old road ran\nalong the river. Birds sang.',
    limit: 30,
    want: { before: 'Birds sang.', beforeRemoved: 34, boundary: 'sentence' },
  },
  { name: 'code points, not UTF-16 units', before: '😀😀😀😀。', limit: 5, want: { before: '😀😀😀😀。', beforeRemoved: 0, boundary: 'none' } },
  { name: 'limit 0 keeps nothing', before: ZH_BEFORE, limit: 0, want: { before: '', beforeRemoved: 27, boundary: 'sentence' } },
];

describe('004 surrounding 的单位与裁剪规则固定', () => {
  it.each(rows)('$name', ({ before = '', after = '', limit, want }) => {
    const res = trimSurrounding({ before, after, limit });
    if (want.before !== undefined) expect(res.before).toBe(want.before);
    if (want.after !== undefined) expect(res.after).toBe(want.after);
    if (want.beforeRemoved !== undefined) expect(res.cut.beforeRemoved).toBe(want.beforeRemoved);
    if (want.afterRemoved !== undefined) expect(res.cut.afterRemoved).toBe(want.afterRemoved);
    expect(res.cut.boundary).toBe(want.boundary);
  });

  it('reports the deeper fallback when the two sides differ', () => {
    const res = trimSurrounding({ before: ZH_BEFORE, after: '一句很长很长很长很长很长的话没有结束', limit: 20 });
    expect(res.before).toBe('他走进院子，看见一只猫。猫看着他。');
    expect(res.after).toBe('一句很长很长很长很长很长的话没有结束');
    const both = trimSurrounding({ before: ZH_BEFORE, after: '一句很长很长很长很长很长的话没有结束', limit: 10 });
    expect(both.after).toBe('');
    expect(both.cut.boundary).toBe('sentence');
  });

  it.each([-1, 1.5, Number.NaN])('rejects limit %s with INVALID_ARGUMENT naming `limit`', (limit) => {
    expect(() => trimSurrounding({ before: '秘密', after: '', limit })).toThrowError(/`limit`/);
  });

  // Property: whatever the text, the kept part is the text nearest the selection, within the limit,
  // and starts/ends at a boundary (never mid-sentence) whenever it was cut.
  const alphabet = fc.constantFrom('他', '走', '了', 'a', 'b', ' ', '。', '！', '，', '.', '?', '”', '\n', '\n\n');
  const text = fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join(''));
  const endsSentence = /[。！？；…．.!?;]["'”’」』）)】》〉\]〕]*$/u;

  it('keeps a suffix/prefix within the limit that starts/ends at a boundary', () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 40 }), (before, after, limit) => {
        const res = trimSurrounding({ before, after, limit });
        const b = Array.from(res.before);
        const a = Array.from(res.after);
        expect(before.endsWith(res.before)).toBe(true);
        expect(after.startsWith(res.after)).toBe(true);
        expect(b.length + res.cut.beforeRemoved).toBe(Array.from(before).length);
        expect(a.length + res.cut.afterRemoved).toBe(Array.from(after).length);
        if (res.cut.beforeRemoved > 0) {
          expect(b.length).toBeLessThanOrEqual(limit);
          const cutPoint = Array.from(before).slice(0, res.cut.beforeRemoved).join('');
          if (res.before !== '') expect(/\s$/u.test(cutPoint) || endsSentence.test(cutPoint)).toBe(true);
        }
        if (res.cut.afterRemoved > 0) {
          expect(a.length).toBeLessThanOrEqual(limit);
          // Cut after a sentence end, or where a paragraph ends (whitespace follows in the original).
          const rest = Array.from(after).slice(a.length).join('');
          if (res.after !== '') expect(endsSentence.test(res.after) || /^\s/u.test(rest)).toBe(true);
        }
      }),
      { seed: 4004, numRuns: 300 },
    );
  });
});
