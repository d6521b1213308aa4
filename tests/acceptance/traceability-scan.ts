/**
 * Reads test names out of test files for the traceability page: every `it`, `test` and `describe`
 * (also `.each(…)`, `.only`, `.skip`) whose first argument is a string literal — single, double or
 * backtick quotes, with escapes, other quote marks and `${…}` inside (shown as `…`).
 */
const CALL = /(?<![\w$.'"`])(?:it|test|describe)\b(?:\.(?:each|only|skip|concurrent|sequential|todo))*\s*/g;

/** The string literal starting at `at` (a quote mark), or null; `end` is the index after it. */
export function readLiteral(src: string, at: number): { text: string; end: number } | null {
  const q = src[at];
  if (q !== "'" && q !== '"' && q !== '`') return null;
  let out = '';
  for (let i = at + 1; i < src.length; i++) {
    const c = src[i] as string;
    if (c === '\\') {
      out += src[i + 1] ?? '';
      i++;
    } else if (c === q) {
      return { text: out, end: i + 1 };
    } else if (q === '`' && c === '$' && src[i + 1] === '{') {
      let depth = 1;
      i += 2;
      while (i < src.length && depth > 0) {
        if (src[i] === '{') depth++;
        else if (src[i] === '}') depth--;
        i++;
      }
      i--;
      out += '…';
    } else if (q !== '`' && c === '\n') {
      return null;
    } else {
      out += c;
    }
  }
  return null;
}

/** Skips a balanced `( … )` starting at `at`, strings included; returns the index after it. */
function skipParens(src: string, at: number): number {
  let depth = 0;
  for (let i = at; i < src.length; i++) {
    const c = src[i];
    if (c === "'" || c === '"' || c === '`') {
      const lit = readLiteral(src, i);
      if (lit) i = lit.end - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return src.length;
}

export function testNames(src: string): string[] {
  const names: string[] = [];
  for (const m of src.matchAll(CALL)) {
    let i = (m.index ?? 0) + m[0].length;
    // `it.each([...])(` — the table comes first, then the name.
    if (m[0].includes('.each')) {
      if (src[i] !== '(') continue;
      i = skipParens(src, i);
      while (/\s/.test(src[i] ?? '')) i++;
    }
    if (src[i] !== '(') continue;
    i++;
    while (/\s/.test(src[i] ?? '')) i++;
    const lit = readLiteral(src, i);
    if (lit) names.push(lit.text.trim());
  }
  return names;
}
