import { EngineError } from '../errors';

/**
 * Reads a JSON array piece by piece (ChatGPT's and Claude's `conversations.json` are one array that can
 * run to hundreds of megabytes) and hands over each top-level element's text on its own, so only one
 * conversation is ever parsed at a time. It follows strings (with escapes) and brackets only; each
 * element is then checked and parsed by the caller (parseJsonSafely).
 *
 *   [ {…}, {…}, … ]   ─▶ element(text, index, position) per {…}
 *
 * Errors name the character position, never the text (it is user data).
 */
export interface JsonArraySplitter {
  push(piece: string): void;
  /** The input is complete: refuses a file that stopped inside the array. */
  end(): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function createJsonArraySplitter(opts: {
  element(text: string, index: number, position: number): void;
  field: string;
  /** What the file must be, for the error ("a ChatGPT export"). */
  expected: string;
  maxElementChars: number;
}): JsonArraySplitter {
  const bad = (why: string, position: number) =>
    new EngineError('INVALID_ARGUMENT', `Invalid \`${opts.field}\`: ${why} (at character ${position}). Nothing was imported.`, {
      fields: [opts.field],
      position,
    });
  /** before: nothing yet; open: after `[` or `,` (an element or `]`); after: after an element (`,` or `]`); closed: after `]`. */
  let state: 'before' | 'open' | 'after' | 'closed' = 'before';
  let offset = 0;
  let index = 0;
  let parts: string[] = [];
  let length = 0;
  let start = 0;
  let depth = 0;
  let inElement = false;
  let inString = false;
  let escape = false;
  let first = true;

  function emit(): void {
    const text = parts.join('');
    if (text.length > opts.maxElementChars) throw bad(`one item is longer than ${opts.maxElementChars} characters`, start);
    parts = [];
    length = 0;
    inElement = false;
    opts.element(text, index++, start);
    state = 'after';
  }

  function push(piece: string): void {
    let i = 0;
    if (first && piece.charCodeAt(0) === 0xfeff) i = 1;
    first = false;
    const n = piece.length;
    let from = i;
    while (i < n) {
      const c = piece.charCodeAt(i);
      if (inElement) {
        if (inString) {
          if (escape) escape = false;
          else if (c === BACKSLASH) escape = true;
          else if (c === QUOTE) inString = false;
          else {
            // Skip ahead to the next quote or backslash: strings are most of the text.
            let q = piece.indexOf('"', i);
            const b = piece.indexOf('\\', i);
            if (q === -1) q = n;
            const next = b !== -1 && b < q ? b : q;
            i = next;
            continue;
          }
        } else if (c === QUOTE) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          depth--;
          if (depth === 0) {
            parts.push(piece.slice(from, i + 1));
            length += i + 1 - from;
            emit();
            i++;
            continue;
          }
        }
        i++;
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      const at = offset + i;
      if (state === 'before') {
        if (c !== 0x5b) throw bad(`this is not ${opts.expected} (it is not a JSON array)`, at);
        state = 'open';
      } else if (state === 'after') {
        if (c === 0x2c) state = 'open';
        else if (c === 0x5d) state = 'closed';
        else throw bad('this is not valid JSON', at);
      } else if (state === 'open') {
        if (c === 0x5d && index === 0) state = 'closed';
        else if (c === 0x7b) {
          inElement = true;
          depth = 1;
          start = at;
          from = i;
        } else throw bad(`this is not ${opts.expected} (its items are not JSON objects)`, at);
      } else throw bad('there is more after the end of the JSON array', at);
      i++;
    }
    if (inElement) {
      parts.push(piece.slice(from));
      length += n - from;
      if (length > opts.maxElementChars) throw bad(`one item is longer than ${opts.maxElementChars} characters`, start);
    }
    offset += n;
  }

  return {
    push,
    end() {
      if (state !== 'closed') throw bad('the file ends before its JSON array does (is it complete?)', offset);
    },
  };
}
