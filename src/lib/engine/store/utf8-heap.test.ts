import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { decodeUtf8 } from './utf8-heap';

const decoder = new TextDecoder('utf-8');
const viaDecoder = (bytes: Uint8Array) => (a: number, b: number) => decoder.decode(bytes.subarray(a, b));

/** The bytes at an offset inside a larger heap, as a column's text sits in the wasm heap. */
function inHeap(bytes: Uint8Array): { heap: Uint8Array; from: number; to: number } {
  const heap = new Uint8Array(bytes.length + 7).fill(0x41);
  heap.set(bytes, 3);
  return { heap, from: 3, to: 3 + bytes.length };
}

describe('decodeUtf8: column text as ordinary strings', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'user 42 said: hello, world!'],
    ['two-byte', 'café naïve Ünïcödé ß'],
    ['CJK (three bytes)', '情景记忆召回：续写打斗场景'],
    ['astral (four bytes, surrogate pairs)', 'emoji 😀 and 𠀋 and 🏳️‍🌈'],
    ['NUL kept inside', 'a\u0000b'],
    ['longest of each width', '\u007f\u07ff\uffff\u{10ffff}'],
  ])('decodes %s exactly as TextDecoder does, without calling it', (_, text) => {
    const { heap, from, to } = inHeap(new TextEncoder().encode(text));
    const fallback = vi.fn(viaDecoder(heap));
    expect(decodeUtf8(heap, from, to, 1024, fallback)).toBe(text);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('matches TextDecoder on any well-formed text, in chunks past 4096 code units too', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), (text) => {
        const { heap, from, to } = inHeap(new TextEncoder().encode(text));
        expect(decodeUtf8(heap, from, to, Infinity, viaDecoder(heap))).toBe(decoder.decode(heap.subarray(from, to)));
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80, 0x62]],
    ['an overlong two-byte form', [0xc0, 0xaf]],
    ['an overlong three-byte form', [0xe0, 0x80, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut at the end', [0x61, 0xe6, 0x83]],
    ['a lead byte followed by ASCII', [0xe6, 0x61, 0x62]],
    ['a byte that never starts a sequence', [0xff, 0x61]],
  ])('hands %s to the fallback, so TextDecoder’s replacement rules apply', (_, raw) => {
    const { heap, from, to } = inHeap(Uint8Array.from(raw));
    const fallback = vi.fn(viaDecoder(heap));
    expect(decodeUtf8(heap, from, to, 1024, fallback)).toBe(decoder.decode(Uint8Array.from(raw)));
    expect(fallback).toHaveBeenCalledWith(from, to);
  });

  it('leaves a text longer than the limit to the fallback', () => {
    const { heap, from, to } = inHeap(new TextEncoder().encode('x'.repeat(1025)));
    const fallback = vi.fn(viaDecoder(heap));
    expect(decodeUtf8(heap, from, to, 1024, fallback)).toBe('x'.repeat(1025));
    expect(fallback).toHaveBeenCalledOnce();
    expect(decodeUtf8(heap, from, from + 1024, 1024, fallback)).toBe('x'.repeat(1024));
    expect(fallback).toHaveBeenCalledOnce();
  });
});
