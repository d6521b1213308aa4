import { describe, expect, it } from 'vitest';
import { markdownToPlain } from './markdown-plain';

describe('markdownToPlain (issue 15: recall snippets without raw markdown)', () => {
  it.each([
    ['**What I remember:** you moved to Porto.', 'What I remember: you moved to Porto.'],
    ['## Reply style\nShort answers.', 'Reply style\nShort answers.'],
    ['- one\n* two\n1. three\n- [x] done', 'one\ntwo\nthree\ndone'],
    ['> quoted *words* and _more_', 'quoted words and more'],
    ['See [the docs](https://example.com) and ![a cat](cat.png).', 'See the docs and a cat.'],
    ['Use `npm test` ~~not~~ now', 'Use npm test not now'],
    ['| a | b |\n|---|---|\n| 1 | 2 |', 'a b\n\n1 2'],
    ['---', ''],
    ['```ts\nconst a_b = c * d * e;\n```', 'const a_b = c * d * e;'],
  ])('%j', (md, plain) => {
    expect(markdownToPlain(md)).toBe(plain);
  });

  it('leaves text that only looks like markdown alone', () => {
    for (const text of ['call snake_case_name and my_var_here', 'a * b * c = 6', '我喜欢 C# 和 F#', '2 * 3 and 4 * 5', 'price_usd vs price_eur']) {
      expect(markdownToPlain(text)).toBe(text);
    }
  });
});
