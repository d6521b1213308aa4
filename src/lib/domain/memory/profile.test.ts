import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProfileHint } from './types';
import { extractCandidates } from './extract-rules';
import { applyProfileHints, emptyProfile, parseProfile, renderProfile, type ProfileDocument } from './profile';

const hintsOf = (text: string): ProfileHint[] => extractCandidates(text).flatMap((c) => c.profile ?? []);

describe('profile document (000 用户画像: visible, editable)', () => {
  it('renders the three sections and notes with headings in the chosen language', () => {
    const doc: ProfileDocument = {
      sections: { reply_style: ['回答长度：简洁'], language: ['回复语言：中文'], background: ['称呼：小明', '职业：程序员'], notes: '周末不谈工作' },
    };
    expect(renderProfile(doc, 'zh-CN')).toBe(
      '## 回复风格\n- 回答长度：简洁\n\n## 语言习惯\n- 回复语言：中文\n\n## 背景\n- 称呼：小明\n- 职业：程序员\n\n## 备注\n周末不谈工作\n',
    );
    expect(renderProfile(emptyProfile(), 'en')).toBe('## Reply style\n\n## Language\n\n## Background\n\n## Notes\n');
  });

  it('round-trips any document: parse(render(doc)) = doc', () => {
    const line = fc.stringMatching(/^[A-Za-z0-9中文：:，,.()'-][A-Za-z0-9中文：:，,.()' -]{0,30}$/).map((s) => s.trim()).filter((s) => s !== '');
    const doc = fc.record({
      locale: fc.constantFrom('en' as const, 'zh-CN' as const),
      sections: fc.record({
        reply_style: fc.array(line, { maxLength: 4 }),
        language: fc.array(line, { maxLength: 4 }),
        background: fc.array(line, { maxLength: 4 }),
        notes: fc.array(line, { maxLength: 4 }).map((lines) => lines.join('\n')),
      }),
    });
    fc.assert(
      fc.property(doc, (d) => {
        const text = renderProfile(d, d.locale);
        expect(parseProfile(text)).toEqual(d);
        expect(renderProfile(parseProfile(text), d.locale)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps everything the user typed, even outside the expected shape', () => {
    const typed = 'Hi, this is me.\n\n## Background\nI teach maths\n* Likes chess\n1. Two kids\n\n## Hobbies\n- sailing\n\n## 回复风格\n- 少用术语\n';
    const doc = parseProfile(typed);
    expect(doc.sections.background).toEqual(['I teach maths', 'Likes chess', 'Two kids']);
    expect(doc.sections.reply_style).toEqual(['少用术语']);
    expect(doc.sections.notes).toBe('Hi, this is me.\n\n## Hobbies\n- sailing');
    const rendered = renderProfile(doc, doc.locale ?? 'en');
    for (const words of ['Hi, this is me.', 'I teach maths', 'Likes chess', 'Two kids', '## Hobbies', 'sailing', '少用术语']) {
      expect(rendered).toContain(words);
    }
  });
});

describe('applyProfileHints (000 更新用户画像)', () => {
  it('adds what a message reveals, in the language of the profile', () => {
    const { text, changed, changes } = applyProfileHints('', hintsOf('我叫张伟，是一名程序员。以后请用中文回答'));
    expect(changed).toBe(true);
    expect(text).toBe('## 回复风格\n\n## 语言习惯\n- 回复语言：中文\n\n## 背景\n- 称呼：张伟\n- 职业：程序员\n\n## 备注\n');
    expect(changes.map((c) => c.action)).toEqual(['added', 'added', 'added']);
  });

  it('the same hint twice changes nothing, and the text is returned untouched', () => {
    const once = applyProfileHints('## Background\n- Name: Sam\n', hintsOf('call me Sam'));
    expect(once).toEqual({ text: '## Background\n- Name: Sam\n', changed: false, changes: [] });
  });

  it('a contradicting hint replaces the old line: "call me Sam" then "call me Alex"', () => {
    const first = applyProfileHints('', hintsOf('call me Sam')).text;
    const second = applyProfileHints(first, hintsOf('call me Alex'));
    expect(second.text).toContain('- Name: Alex');
    expect(second.text).not.toContain('Sam');
    expect(second.changes).toEqual([{ section: 'background', action: 'replaced', previous: 'Name: Sam', text: 'Name: Alex' }]);
  });

  it('replaces a line the user typed in their own words when it covers the same thing', () => {
    const typed = '## 回复风格\n- 回答尽量简洁\n- 少用术语\n';
    const { text, changes } = applyProfileHints(typed, hintsOf('以后回答详细一些'));
    expect(parseProfile(text).sections.reply_style).toEqual(['回答长度：详细', '少用术语']);
    expect(changes[0]).toMatchObject({ action: 'replaced', previous: '回答尽量简洁' });
  });

  it('a withdrawal removes the line, once', () => {
    const withJob = applyProfileHints('', hintsOf('我在腾讯工作')).text;
    const left = applyProfileHints(withJob, hintsOf('我已经不在腾讯工作了'));
    expect(left.changes).toEqual([{ section: 'background', action: 'removed', previous: '工作单位：腾讯' }]);
    expect(parseProfile(left.text).sections.background).toEqual([]);
    expect(applyProfileHints(left.text, hintsOf('我已经不在腾讯工作了')).changed).toBe(false);
  });

  it('is idempotent for any profile and any hints', () => {
    const sentences = ['call me Sam', '叫我小明', '以后请用中文回答', 'From now on, please answer in English', '以后回答简洁一点', 'From now on, keep your answers detailed', '我在腾讯工作', '我已经不在腾讯工作了', 'I live in Berlin', '以后请先给结论再解释', "Please don't use emojis"];
    const hints = fc.array(fc.constantFrom(...sentences), { maxLength: 5 }).map((s) => s.flatMap(hintsOf));
    const start = fc.constantFrom('', '## Background\n- Name: Bob\n', '## 回复风格\n- 回答尽量简洁\n\n## 备注\n自由文本', 'just some notes');
    fc.assert(
      fc.property(start, hints, (text, h) => {
        const once = applyProfileHints(text, h);
        const twice = applyProfileHints(once.text, h);
        expect(twice).toEqual({ text: once.text, changed: false, changes: [] });
      }),
      { numRuns: 200 },
    );
  });
});
