/**
 * UTF-8 text read out of the wasm heap as ordinary V8 strings (issue 16 item 5). In Chromium a string returned by
 * `TextDecoder.decode` is a Blink string handed to V8 as an *external* string, each with a weak handle in Blink's
 * string cache. A Chrome trace of the stall bench's reindex at 10,000 turns (bench/speed/stall-trace.ts, quiet, three
 * runs) put its longest foreground waits — 55, 92 and 81 ms — on one major GC each of the DB worker, and most of that
 * pause on those strings: clearing the external string table (42 ms on a helper thread the worker joins) and the
 * embedder's weak global handles (24 ms), for strings that every column read of every row had made. Decoded here, in
 * JS, a column's text is a V8 heap string: young, collected by a scavenge, with no handle and no table entry.
 *
 * Only well-formed UTF-8 is decoded here, and only up to `max` bytes; anything else (a long text, an ill-formed
 * sequence) goes to `fallback` — TextDecoder, whose U+FFFD replacement rules this never has to reproduce. For
 * well-formed input the result is TextDecoder's, code unit for code unit (the test compares them on every kind of
 * sequence and on random text).
 */

/** Code units gathered before a String.fromCharCode call (below every engine's argument limit). */
const CHUNK = 4096;

/**
 * The string `bytes[from, to)` encodes, or `fallback(from, to)` when the range is longer than `max` bytes or is not
 * well-formed UTF-8 (an unexpected continuation byte, a truncated sequence, an overlong form, a surrogate, a code
 * point past U+10FFFF).
 */
export function decodeUtf8(bytes: Uint8Array, from: number, to: number, max: number, fallback: (from: number, to: number) => string): string {
  if (to - from > max) return fallback(from, to);
  // All ASCII (most ids, keys and English text): one call over the bytes themselves, no code unit array.
  let ascii = from;
  while (ascii < to && bytes[ascii]! < 0x80) ascii++;
  if (ascii === to) return to - from <= CHUNK ? String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]) : fallback(from, to);
  let out = '';
  const units: number[] = [];
  let i = from;
  while (i < to) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      units.push(b0);
      i++;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (i + 1 >= to) return fallback(from, to);
      const b1 = bytes[i + 1]!;
      if ((b1 & 0xc0) !== 0x80) return fallback(from, to);
      units.push(((b0 & 0x1f) << 6) | (b1 & 0x3f));
      i += 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      if (i + 2 >= to) return fallback(from, to);
      const b1 = bytes[i + 1]!;
      const b2 = bytes[i + 2]!;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return fallback(from, to);
      const cp = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      // Overlong (below U+0800) or a UTF-16 surrogate: not well-formed.
      if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return fallback(from, to);
      units.push(cp);
      i += 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      if (i + 3 >= to) return fallback(from, to);
      const b1 = bytes[i + 1]!;
      const b2 = bytes[i + 2]!;
      const b3 = bytes[i + 3]!;
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return fallback(from, to);
      const cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
      if (cp < 0x10000 || cp > 0x10ffff) return fallback(from, to);
      const v = cp - 0x10000;
      units.push(0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff));
      i += 4;
    } else {
      // 0x80–0xC1 (a continuation byte or an overlong lead) and 0xF5–0xFF never start a sequence.
      return fallback(from, to);
    }
    if (units.length >= CHUNK) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return units.length ? out + String.fromCharCode(...units) : out;
}
