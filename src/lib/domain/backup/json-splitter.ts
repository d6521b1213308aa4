import { EngineError } from '../errors';
import { MAX_ELEMENT_CHARS, MAX_JSON_DEPTH, MAX_STRING_CHARS } from './limits';
import { FORBIDDEN_KEYS, scanJson } from './safe-json';

/**
 * Reads an export file piece by piece, as it arrives, without ever holding its whole text: the envelope
 * is followed structurally and each row, file and top-level value is cut out on its own, checked by
 * safe-json's scan (depth, string lengths, forbidden keys) and parsed alone.
 *
 *   { "format": …, "version": …, …            ─▶ head(key, value)
 *     "tables": { "<table>": [ row, row, … ] ─▶ row(table, index, value)
 *     "files": [ file, … ] }                  ─▶ file(index, value)
 *
 * The same refusals as parseJsonSafely, with absolute positions: malformed JSON, nesting deeper than
 * MAX_JSON_DEPTH, strings over MAX_STRING_CHARS, `__proto__`/`constructor`/`prototype` keys — and one
 * more a whole-text parse does not need: no single value may exceed MAX_ELEMENT_CHARS.
 */
export type SplitEvent =
  | { kind: 'head'; key: string; value: unknown }
  | { kind: 'row'; table: string; index: number; value: unknown }
  | { kind: 'file'; index: number; value: unknown };

export interface SplitterLimits {
  maxDepth: number;
  maxStringChars: number;
  maxElementChars: number;
}

const DEFAULT_LIMITS: SplitterLimits = { maxDepth: MAX_JSON_DEPTH, maxStringChars: MAX_STRING_CHARS, maxElementChars: MAX_ELEMENT_CHARS };

type Role = 'root' | 'tables' | 'table' | 'files';

interface Frame {
  role: Role;
  array: boolean;
  /** first: a key/value or the end may follow; key/colon/value/comma as in the grammar. */
  expect: 'first' | 'key' | 'colon' | 'value' | 'comma';
  key: string;
  index: number;
  table: string;
  seen: Set<string>;
}

type Target = { kind: 'head'; key: string } | { kind: 'row'; table: string; index: number } | { kind: 'file'; index: number };

interface Capture {
  target: Target;
  parts: string[];
  length: number;
  /** Absolute position of its first character. */
  start: number;
  /** Container depth inside the value (0 for a scalar). */
  depth: number;
  /** Structural depth it sits at (the containers around it). */
  base: number;
  scalar: boolean;
  inString: boolean;
  escape: boolean;
  stringStart: number;
}

/** Longest key the envelope itself has (table names); anything longer is not an export. */
const MAX_ENVELOPE_KEY = 64;

function invalid(message: string, position: number, field = 'file'): EngineError {
  return new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: ${message} (at character ${position}). Nothing was imported.`, {
    fields: [field],
    position,
  });
}

const notJson = (position: number) => invalid('this is not valid JSON', position);

/** How many backslashes stand right before `at` (not looking before `from`). */
function backslashesBefore(text: string, at: number, from: number): number {
  let n = 0;
  for (let k = at - 1; k >= from && text.charCodeAt(k) === 0x5c; k--) n++;
  return n;
}
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function createJsonSplitter(onEvent: (event: SplitEvent) => void, limits: SplitterLimits = DEFAULT_LIMITS) {
  const stack: Frame[] = [];
  let offset = 0;
  let started = false;
  let done = false;
  let capture: Capture | null = null;
  let key: { parts: string[]; escape: boolean; start: number } | null = null;

  const frame = (role: Role, array: boolean, table = ''): Frame => ({ role, array, expect: 'first', key: '', index: 0, table, seen: new Set() });

  function emit(c: Capture): void {
    const raw = c.parts.join('');
    scanJson(raw, { maxDepth: limits.maxDepth - c.base, maxStringChars: limits.maxStringChars }, 'file', c.start);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw notJson(c.start);
    }
    const t = c.target;
    onEvent(t.kind === 'head' ? { kind: 'head', key: t.key, value } : t.kind === 'row' ? { kind: 'row', table: t.table, index: t.index, value } : { kind: 'file', index: t.index, value });
  }

  /** Continues the value being cut out; returns where the scan goes on (the chunk's end if it did not end). */
  function continueCapture(text: string, from: number): number {
    const c = capture as Capture;
    let i = from;
    let end = -1;
    while (i < text.length && end === -1) {
      if (c.inString) {
        if (c.escape) {
          c.escape = false;
          i++;
          continue;
        }
        // The next quote no backslash escapes (an even run of backslashes before it), found with indexOf
        // so long strings cost no per-character work.
        let q = text.indexOf('"', i);
        while (q !== -1 && backslashesBefore(text, q, i) % 2 === 1) q = text.indexOf('"', q + 1);
        if (q === -1) {
          // The string runs on into the next piece; an odd run of backslashes here escapes its first character.
          c.escape = backslashesBefore(text, text.length, i) % 2 === 1;
          i = text.length;
        } else {
          c.inString = false;
          i = q + 1;
          if (c.scalar) end = i;
        }
        if (offset + i - c.stringStart - 1 > limits.maxStringChars)
          throw invalid(`a text is longer than ${limits.maxStringChars} characters`, c.stringStart);
        continue;
      }
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        c.inString = true;
        c.stringStart = offset + i;
        i++;
      } else if (ch === 0x7b || ch === 0x5b) {
        if (++c.depth + c.base > limits.maxDepth) throw invalid(`nesting is deeper than ${limits.maxDepth} levels`, offset + i);
        i++;
      } else if (ch === 0x7d || ch === 0x5d) {
        if (c.scalar) end = i;
        else {
          i++;
          if (--c.depth === 0) end = i;
        }
      } else if (c.scalar && (ch === 0x2c || isSpace(ch))) {
        end = i;
      } else i++;
    }
    const stop = end === -1 ? text.length : end;
    c.parts.push(text.slice(from, stop));
    c.length += stop - from;
    if (c.length > limits.maxElementChars) throw invalid(`one value is longer than ${limits.maxElementChars} characters`, c.start);
    if (end !== -1) {
      capture = null;
      emit(c);
      (stack.at(-1) as Frame).expect = 'comma';
    }
    return stop;
  }

  function continueKey(text: string, from: number): number {
    const k = key as NonNullable<typeof key>;
    let i = from;
    while (i < text.length) {
      const ch = text.charCodeAt(i);
      if (k.escape) k.escape = false;
      else if (ch === 0x5c) k.escape = true;
      else if (ch === 0x22) {
        k.parts.push(text.slice(from, i + 1));
        key = null;
        let name: string;
        try {
          name = JSON.parse(k.parts.join('')) as string;
        } catch {
          throw notJson(k.start);
        }
        if (FORBIDDEN_KEYS.has(name)) throw invalid(`the key \`${name}\` is not allowed`, k.start);
        const f = stack.at(-1) as Frame;
        if (f.seen.has(name)) throw invalid('a key appears twice in the same object', k.start);
        f.seen.add(name);
        f.key = name;
        f.expect = 'colon';
        return i + 1;
      }
      i++;
      if (offset + i - k.start > MAX_ENVELOPE_KEY + 2) throw notJson(k.start);
    }
    k.parts.push(text.slice(from));
    return text.length;
  }

  function startCapture(target: Target, ch: number, at: number): void {
    const isContainer = ch === 0x7b || ch === 0x5b;
    capture = {
      target,
      parts: [],
      length: 0,
      start: at,
      depth: 0,
      base: stack.length,
      scalar: !isContainer,
      inString: false,
      escape: false,
      stringStart: at,
    };
  }

  /** A value begins inside frame `f` with character `ch` at absolute position `at`. */
  function beginValue(f: Frame, ch: number, at: number): void {
    if (f.role === 'root' && (f.key === 'tables' || f.key === 'files')) {
      const wanted = f.key === 'tables' ? 0x7b : 0x5b;
      if (ch !== wanted) throw invalid(`expected ${f.key === 'tables' ? 'an object' : 'an array'}`, at, f.key);
      stack.push(frame(f.key === 'tables' ? 'tables' : 'files', f.key === 'files'));
      if (stack.length > limits.maxDepth) throw invalid(`nesting is deeper than ${limits.maxDepth} levels`, at);
      return;
    }
    if (f.role === 'tables') {
      if (ch !== 0x5b) throw invalid('expected an array of rows', at, 'tables');
      stack.push(frame('table', true, f.key));
      return;
    }
    if (f.role === 'root') startCapture({ kind: 'head', key: f.key }, ch, at);
    else if (f.role === 'table') startCapture({ kind: 'row', table: f.table, index: f.index++ }, ch, at);
    else startCapture({ kind: 'file', index: f.index++ }, ch, at);
  }

  /** Closes the top frame with `ch`; the frame around it then expects a comma or its own end. */
  function close(f: Frame, ch: number, at: number): void {
    if (ch !== (f.array ? 0x5d : 0x7d)) throw notJson(at);
    stack.pop();
    const parent = stack.at(-1);
    if (parent) parent.expect = 'comma';
    else done = true;
  }

  function push(chunk: string): void {
    let text = chunk;
    if (!started && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      offset++;
    }
    let i = 0;
    while (i < text.length) {
      if (capture) {
        i = continueCapture(text, i);
        continue;
      }
      if (key) {
        i = continueKey(text, i);
        continue;
      }
      const ch = text.charCodeAt(i);
      const at = offset + i;
      if (isSpace(ch)) {
        i++;
        continue;
      }
      if (done) throw notJson(at);
      const f = stack.at(-1);
      if (!f) {
        if (ch !== 0x7b) throw invalid('this is not an Engram export (it is not a JSON object)', at);
        started = true;
        stack.push(frame('root', false));
        i++;
        continue;
      }
      started = true;
      switch (f.expect) {
        case 'first':
        case 'key':
          if (!f.array && ch === 0x22) {
            key = { parts: ['"'], escape: false, start: at };
            i = continueKey(text, i + 1);
            continue;
          }
          if (f.expect === 'first' && (ch === 0x7d || ch === 0x5d)) {
            close(f, ch, at);
            i++;
            continue;
          }
          if (f.array && f.expect === 'first') {
            beginValue(f, ch, at);
            if (!capture) i++;
            continue;
          }
          throw notJson(at);
        case 'colon':
          if (ch !== 0x3a) throw notJson(at);
          f.expect = 'value';
          i++;
          continue;
        case 'value':
          beginValue(f, ch, at);
          if (!capture) i++;
          continue;
        case 'comma':
          if (ch === 0x2c) {
            f.expect = f.array ? 'value' : 'key';
            i++;
            continue;
          }
          close(f, ch, at);
          i++;
          continue;
      }
    }
    offset += text.length;
  }

  return {
    push,
    /** The text has ended: anything still open means the file was cut short. */
    end(): void {
      if (!done || capture || key) throw notJson(offset);
    },
  };
}
