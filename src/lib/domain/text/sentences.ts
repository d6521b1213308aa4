/**
 * Sentence boundaries for Chinese and English: 。！？!?… and ；; end a sentence, closing quotes or
 * brackets stay with it, a period ends an English sentence only before whitespace or the end (so 3.14,
 * src/order.ts and v1.2 stay whole), and a newline always ends one.
 */
const TERMINATORS = new Set(['。', '！', '？', '!', '?', '…', '；', ';']);
const CLOSERS = new Set(['”', '’', '"', "'", '」', '』', '）', ')', ']', '】', '》']);

export function splitSentences(text: string): string[] {
  // By UTF-16 unit: every terminator and closer is one unit, and half of a surrogate pair is none of them (nor
  // whitespace), so the cuts are those of walking code points, without an array of them.
  const out: string[] = [];
  const n = text.length;
  let start = 0;
  const cut = (end: number) => {
    const s = text.slice(start, end).trim();
    if (s) out.push(s);
    start = end;
  };
  for (let i = 0; i < n; i++) {
    const c = text[i] as string;
    if (c === '\n') {
      cut(i + 1);
      continue;
    }
    const endsHere = TERMINATORS.has(c) || (c === '.' && (i + 1 === n || /\s/u.test(text[i + 1] as string)));
    if (!endsHere) continue;
    let j = i + 1;
    while (j < n && (TERMINATORS.has(text[j] as string) || text[j] === '.')) j++;
    while (j < n && CLOSERS.has(text[j] as string)) j++;
    cut(j);
    i = j - 1;
  }
  cut(n);
  return out;
}
