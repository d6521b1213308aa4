import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse';

const bytes = (s: string) => new TextEncoder().encode(s);

function parseAll(parts: Uint8Array[]): string[] {
  const p = createSseParser();
  return [...parts.flatMap((b) => p.push(b)), ...p.end()];
}

describe('createSseParser', () => {
  it.each([
    ['one event', 'data: {"a":1}\n\n', ['{"a":1}']],
    ['CRLF line ends', 'data: x\r\n\r\ndata: y\r\n\r\n', ['x', 'y']],
    ['bare CR line ends', 'data: x\r\rdata: y\r\r', ['x', 'y']],
    ['no space after the colon', 'data:x\n\n', ['x']],
    ['a multi-line event', 'data: a\ndata: b\n\n', ['a\nb']],
    ['comments and other fields', ': keep-alive\nevent: message\nid: 7\ndata: x\n\n', ['x']],
    ['the DONE marker', 'data: x\n\ndata: [DONE]\n\n', ['x', '[DONE]']],
    ['a last event without its blank line', 'data: x\n\ndata: y', ['x', 'y']],
    ['blank lines without data', '\n\n\n', []],
  ])('parses %s', (_label, text, expected) => {
    expect(parseAll([bytes(text)])).toEqual(expected);
  });

  it('gives the same events however the bytes are split (lines, CRLF and UTF-8 characters cut anywhere)', () => {
    const text = 'data: {"content":"你好, 世界 👋"}\r\n\r\n: ping\ndata: {"content":"é"}\n\ndata: [DONE]\n\n';
    const whole = bytes(text);
    const expected = parseAll([whole]);
    expect(expected).toEqual(['{"content":"你好, 世界 👋"}', '{"content":"é"}', '[DONE]']);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), whole.length];
        const parts = points.slice(1).map((end, i) => whole.slice(points[i], end));
        expect(parseAll(parts)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('returns events as soon as their blank line arrives', () => {
    const p = createSseParser();
    expect(p.push(bytes('data: a\n'))).toEqual([]);
    expect(p.push(bytes('\ndata: b'))).toEqual(['a']);
    expect(p.push(bytes('\n\n'))).toEqual(['b']);
  });
});
