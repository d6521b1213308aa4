import { EngineError } from '../errors';
import { MAX_JSON_DEPTH, MAX_STRING_CHARS } from './limits';

/**
 * JSON.parse for files a stranger may have written. Before parsing, one linear, non-recursive scan
 * of the text refuses what JSON.parse would accept but we must not: nesting deeper than `maxDepth`
 * (which would make every later walk of the value recursive and deep), strings longer than
 * `maxStringChars`, the keys `__proto__`, `constructor`, `prototype` (prototype pollution in any
 * later merge), and a key twice in one object (JSON.parse would keep the last value silently, so
 * `"content":"a","content":"b"` would import "b" — issue 13). Errors name the position, never the
 * text around it (it is user data).
 */
export interface SafeJsonLimits {
  maxDepth: number;
  maxStringChars: number;
}

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const DEFAULT_LIMITS: SafeJsonLimits = { maxDepth: MAX_JSON_DEPTH, maxStringChars: MAX_STRING_CHARS };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function invalid(message: string, position: number, field: string): EngineError {
  return new EngineError('INVALID_ARGUMENT', `Invalid \`${field}\`: ${message} (at character ${position}). Nothing was imported.`, {
    fields: [field],
    position,
  });
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The end (index of the closing quote) of the string opening at `open`, or -1 when unterminated. */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  while (q !== -1) {
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

function keyText(raw: string): string | null {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return null; // a bad escape: JSON.parse reports it with its position
  }
}

/**
 * Throws INVALID_ARGUMENT for over-deep nesting, over-long strings and forbidden keys; returns nothing.
 * `offset`: where `text` starts in the file (positions in messages are the file's).
 */
export function scanJson(text: string, limits: SafeJsonLimits = DEFAULT_LIMITS, field = 'file', offset = 0): void {
  // The keys seen in each open object (null for an array), innermost last.
  const open: (Set<string> | null)[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return; // unterminated: JSON.parse names the position
      if (end - i - 1 > limits.maxStringChars)
        throw invalid(`a text is longer than ${limits.maxStringChars} characters`, offset + i, field);
      let j = end + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      const keys = open.at(-1);
      if (text.charCodeAt(j) === COLON && keys) {
        const key = keyText(text.slice(i, end + 1));
        if (key !== null) {
          if (FORBIDDEN_KEYS.has(key)) throw invalid(`the key \`${key}\` is not allowed`, offset + i, field);
          if (keys.has(key)) throw invalid('a key appears twice in the same object', offset + i, field);
          keys.add(key);
        }
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c === 0x7b ? new Set() : null);
      if (open.length > limits.maxDepth) throw invalid(`nesting is deeper than ${limits.maxDepth} levels`, offset + i, field);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    }
  }
}

/** Scans, then parses. A syntax error becomes INVALID_ARGUMENT with the position only. */
export function parseJsonSafely(input: string, limits: SafeJsonLimits = DEFAULT_LIMITS, field = 'file'): unknown {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  scanJson(text, limits, field);
  try {
    return JSON.parse(text);
  } catch (err) {
    const match = err instanceof Error ? /position (\d+)/.exec(err.message) : null;
    const position = match ? Number(match[1]) : text.length;
    throw invalid('this is not valid JSON', position, field);
  }
}
