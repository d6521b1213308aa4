/**
 * Sentence boundaries for Chinese and English: 。！？!?… and ；; end a sentence, closing quotes or
 * brackets stay with it, a period ends an English sentence only before whitespace or the end (so 3.14,
 * src/order.ts and v1.2 stay whole), and a newline always ends one.
 */
const TERMINATORS = new Set(['。', '！', '？', '!', '?', '…', '；', ';']);
const CLOSERS = new Set(['”', '’', '"', "'", '」', '』', '）', ')', ']', '】', '》']);

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const chars = Array.from(text);
  let start = 0;
  const cut = (end: number) => {
    const s = chars.slice(start, end).join('').trim();
    if (s) out.push(s);
    start = end;
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\n') {
      cut(i + 1);
      continue;
    }
    const endsHere = TERMINATORS.has(c) || (c === '.' && (i + 1 === chars.length || /\s/u.test(chars[i + 1] ?? '')));
    if (!endsHere) continue;
    let j = i + 1;
    while (j < chars.length && (TERMINATORS.has(chars[j] as string) || chars[j] === '.')) j++;
    while (j < chars.length && CLOSERS.has(chars[j] as string)) j++;
    cut(j);
    i = j - 1;
  }
  cut(chars.length);
  return out;
}
