/**
 * Markdown as the words a person reads (issue 15: recall snippets showed "**What I remember:**" and
 * "## Reply style"). Marks are dropped, their text kept: headings, emphasis, inline code, links and
 * images (their text), quotes, list markers, rules and table pipes. Code keeps its characters —
 * `snake_case_names` and `a * b` are not emphasis — and nothing that is not markdown is touched.
 */
const FENCE = /^\s{0,3}(?:```|~~~)/u;
const LINE_MARKS: readonly [RegExp, string][] = [
  [/^\s{0,3}#{1,6}\s+/u, ''],
  [/^\s{0,3}>\s?/u, ''],
  [/^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?/u, ''],
  [/^\s*(?:[-*_]\s*){3,}$/u, ''],
  [/^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-{3,}:?\s*\|?\s*$/u, ''],
];
const INLINE_MARKS: readonly [RegExp, string][] = [
  [/!\[([^\]\n]*)\]\([^)\n]*\)/gu, '$1'],
  [/\[([^\]\n]+)\]\([^)\n]*\)/gu, '$1'],
  [/<((?:https?|mailto):[^>\s]+)>/gu, '$1'],
  [/`([^`\n]+)`/gu, '$1'],
  [/(\*\*|__)(?=\S)([^\n]*?\S)\1/gu, '$2'],
  [/~~(?=\S)([^\n]*?\S)~~/gu, '$1'],
  [/(^|[^\p{L}\p{N}*\\])\*(?=\S)([^*\n]*?\S)\*(?![\p{L}\p{N}*])/gu, '$1$2'],
  [/(^|[^\p{L}\p{N}_\\])_(?=\S)([^_\n]*?\S)_(?![\p{L}\p{N}_])/gu, '$1$2'],
];

export function markdownToPlain(text: string): string {
  let inCode = false;
  const lines: string[] = [];
  for (const line of text.replace(/\r\n?/gu, '\n').split('\n')) {
    if (FENCE.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      lines.push(line);
      continue;
    }
    let plain = line;
    for (const [re, to] of LINE_MARKS) plain = plain.replace(re, to);
    for (const [re, to] of INLINE_MARKS) plain = plain.replace(re, to);
    lines.push(plain.includes('|') && /^\s*\|.*\|\s*$/u.test(line) ? plain.replace(/\s*\|\s*/gu, ' ').trim() : plain);
  }
  return lines.join('\n');
}
