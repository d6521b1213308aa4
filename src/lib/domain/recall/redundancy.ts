/**
 * Near-copies in a result list (issue 8; 002 SC-LTM-001): a conversation that says the same thing turn after turn
 * ("OrderService 的问题现在又出现在第96轮了", "…第97轮了", …) would otherwise fill a short list with one statement
 * and push out everything else it remembers — the summary of the earlier discussion included. A list shows at
 * most MAX_COPIES turns that are near-copies of each other.
 *
 * Near-copy: Jaccard similarity of shingles ≥ NEAR_COPY, where shingles are the lower-cased Latin words and the
 * CJK character pairs of a text's first SHINGLED_CHARS characters (a copy shows in its opening; no segmenter: this
 * runs on the few candidates a list is filled from).
 */
import { cjkBigrams } from '../text/grams';

export const NEAR_COPY = 0.6;
export const MAX_COPIES = 2;
export const SHINGLED_CHARS = 400;

const LATIN_WORD = /[\p{L}\p{N}_]+/gu;
const CJK = /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]/u;

export function shingles(text: string): Set<string> {
  const normal = text.slice(0, SHINGLED_CHARS).normalize('NFKC').toLowerCase();
  const out = new Set<string>(cjkBigrams(normal));
  for (const m of normal.matchAll(LATIN_WORD)) if (!CJK.test(m[0])) out.add(m[0]);
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

export function nearCopies(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return jaccard(a, b) >= NEAR_COPY;
}
