/**
 * Where text may be cut without splitting a sentence (seed 004: "以段落边界优先裁剪；必要时可退化到
 * 句子边界；不得进行不可解释的硬截断"). Positions are code-point indexes into `Array.from(text)`.
 *
 *   paragraph boundary: a whitespace run holding a blank line, or a line break right after a sentence
 *                       end (editors store one paragraph per line; a break after an unfinished
 *                       sentence is a soft wrap and is NOT a boundary)
 *   sentence boundary : after 。！？；… (CJK, no space needed) or . ! ? ; followed by whitespace or the
 *                       end, plus any closing quotes/brackets right after them (。」 ?" ！）)
 */

const CJK_TERMINATORS = new Set(['。', '！', '？', '；', '…', '．']);
const ASCII_TERMINATORS = new Set(['.', '!', '?', ';']);
const CLOSERS = new Set(['"', "'", '”', '’', '」', '』', '）', ')', '】', '》', '〉', ']', '〕']);

const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);
const isTerminator = (c: string | undefined) => c !== undefined && (CJK_TERMINATORS.has(c) || ASCII_TERMINATORS.has(c));

export interface Boundary {
  /** Code-point index where the text before it ends (exclusive, no trailing whitespace). */
  end: number;
  /** Code-point index where the text after it starts (after the whitespace). */
  start: number;
  kind: 'paragraph' | 'sentence';
}

/** All cut points in order. A paragraph boundary is also a sentence boundary; it is listed once, as paragraph. */
export function findBoundaries(cps: readonly string[]): Boundary[] {
  const out: Boundary[] = [];
  const n = cps.length;
  let i = 0;
  while (i < n) {
    const c = cps[i];
    if (isTerminator(c)) {
      let j = i + 1;
      while (j < n && (isTerminator(cps[j]) || CLOSERS.has(cps[j] ?? ''))) j++;
      // An ASCII terminator only ends a sentence before whitespace or the end ("3.14", "e.g.x" do not).
      const onlyAscii = cps.slice(i, j).every((x) => !CJK_TERMINATORS.has(x));
      if (!onlyAscii || j === n || isSpace(cps[j])) {
        let k = j;
        while (k < n && isSpace(cps[k])) k++;
        out.push({ end: j, start: k, kind: hasBlankOrBreak(cps, j, k) ? 'paragraph' : 'sentence' });
        i = k;
        continue;
      }
      i = j;
      continue;
    }
    if (c === '\n') {
      // Whitespace run around this line break; only a blank line makes it a paragraph boundary here
      // (a break after a sentence end was handled above).
      let s = i;
      while (s > 0 && isSpace(cps[s - 1]) && cps[s - 1] !== '\n') s--;
      let k = i;
      while (k < n && isSpace(cps[k])) k++;
      if (countBreaks(cps, s, k) >= 2 && s > 0) out.push({ end: s, start: k, kind: 'paragraph' });
      i = k;
      continue;
    }
    i++;
  }
  return out;
}

function countBreaks(cps: readonly string[], from: number, to: number): number {
  let breaks = 0;
  for (let x = from; x < to; x++) if (cps[x] === '\n') breaks++;
  return breaks;
}

function hasBlankOrBreak(cps: readonly string[], from: number, to: number): boolean {
  return countBreaks(cps, from, to) >= 1;
}
