import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { highlightSnippet } from './snippet';

const render = (s: ReturnType<typeof highlightSnippet>) => s.segments.map((x) => (x.hit ? `[${x.text}]` : x.text)).join('');
const length = (s: ReturnType<typeof highlightSnippet>) => Array.from(s.segments.map((x) => x.text).join('')).length;

describe('highlightSnippet', () => {
  it.each([
    ['case-insensitive Latin', 'I like Python a lot', ['python'], 'I like [Python] a lot'],
    ['prefix marks the whole word', 'Pythonic code in Python', ['pyth'], '[Pythonic] code in [Python]'],
    ['no match inside a word', 'unhappy but happy', ['happy'], 'unhappy but [happy]'],
    ['camelCase hump', 'fix processPayment now', ['payment'], 'fix process[Payment] now'],
    ['whole identifier', 'fix processPayment() now', ['processPayment'], 'fix [processPayment]() now'],
    ['CJK anywhere', '我们今天去北京大学学习', ['北京', '学习'], '我们今天去[北京]大学[学习]'],
    ['mixed zh/en', '我喜欢用 Python 写代码', ['Python', '代码'], '我喜欢用 [Python] 写[代码]'],
    ['regex characters in terms are literal', 'a+b (c) costs $5', ['a+b', '(c)', '$5'], '[a+b] [(c)] costs [$5]'],
    ['whitespace collapsed', 'line one\n\n   line two', ['two'], 'line one line [two]'],
    ['no terms', 'nothing to see', [], 'nothing to see'],
  ])('%s', (_name, text, terms, expected) => {
    const s = highlightSnippet(text, terms);
    expect(render(s)).toBe(expected);
    expect(s.truncatedStart || s.truncatedEnd).toBe(false);
  });

  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('windows the best cluster: the place where most distinct terms meet', () => {
    const text = `${filler(40)} python alone here. ${filler(40)} rust and python together. ${filler(40)}`;
    const s = highlightSnippet(text, ['python', 'rust'], { maxChars: 60 });
    expect(render(s)).toContain('[rust] and [python] together');
    expect(s.truncatedStart).toBe(true);
    expect(s.truncatedEnd).toBe(true);
    expect(s.segments[0]).toEqual({ text: '…', hit: false });
    expect(s.segments.at(-1)).toEqual({ text: '…', hit: false });
    expect(length(s)).toBeLessThanOrEqual(60);
  });

  it('counts code points (emoji, CJK) against maxChars and never cuts a surrogate pair', () => {
    const text = `${'😀北京'.repeat(100)}关键${'😀'.repeat(100)}`;
    const s = highlightSnippet(text, ['关键'], { maxChars: 30 });
    expect(length(s)).toBeLessThanOrEqual(30);
    expect(render(s)).toContain('[关键]');
    expect(s.segments.map((x) => x.text).join('')).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('a match near the start needs no leading ellipsis', () => {
    const s = highlightSnippet(`Python ${filler(100)}`, ['python'], { maxChars: 40 });
    expect(s.truncatedStart).toBe(false);
    expect(s.truncatedEnd).toBe(true);
    expect(s.segments[0]).toEqual({ text: 'Python', hit: true });
    expect(length(s)).toBeLessThanOrEqual(40);
  });

  it('a match at the very end needs no trailing ellipsis', () => {
    const s = highlightSnippet(`${filler(100)} Python`, ['python'], { maxChars: 40 });
    expect(s.truncatedStart).toBe(true);
    expect(s.truncatedEnd).toBe(false);
    expect(s.segments.at(-1)).toEqual({ text: 'Python', hit: true });
  });

  it('no match in a long text: its beginning', () => {
    const s = highlightSnippet(filler(100), ['absent'], { maxChars: 50 });
    expect(s.truncatedStart).toBe(false);
    expect(s.truncatedEnd).toBe(true);
    expect(s.segments.every((x) => !x.hit)).toBe(true);
    expect(s.segments[0]!.text.startsWith('word0 word1')).toBe(true);
  });

  it('rejects a maxChars that cannot hold a snippet, naming the field', () => {
    expect(() => highlightSnippet('x', [], { maxChars: 3 })).toThrow(EngineError);
    expect(() => highlightSnippet('x', [], { maxChars: 3 })).toThrow(/`maxChars`/);
  });
});
