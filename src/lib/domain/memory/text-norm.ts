import { distance } from 'fastest-levenshtein';

/**
 * Small text helpers shared by extraction, reconciliation and scoring. Kept local so the memory domain
 * does not depend on how `text/keywords` segments words; all of them are pure and locale-free.
 */

const HAN = /\p{Script=Han}/u;
const HAN_RUN = /\p{Script=Han}+/gu;
const LATIN_WORD = /[\p{L}\p{N}][\p{L}\p{N}+#'._-]*/gu;

export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/** `zh` when the text contains Han characters, `en` otherwise (the two languages the rules know). */
export function detectLanguage(text: string): 'zh' | 'en' {
  return hasHan(text) ? 'zh' : 'en';
}

/** NFKC (full-width → half-width), lower case, one space between words, trimmed. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Cuts to at most `max` code points (never in the middle of a surrogate pair). */
export function clampText(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

export function codePointLength(text: string): number {
  return Array.from(text).length;
}

/**
 * Comparable tokens: Latin words (lower case) and Han bigrams (a lone Han character is its own token),
 * so "我喜欢喝咖啡" and "我很喜欢喝咖啡" share most tokens without a word segmenter.
 */
export function comparableTokens(text: string): Set<string> {
  const norm = normaliseText(text);
  const out = new Set<string>();
  for (const run of norm.match(HAN_RUN) ?? []) {
    const chars = Array.from(run);
    if (chars.length === 1) out.add(run);
    for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
  }
  for (const word of norm.replace(HAN_RUN, ' ').match(LATIN_WORD) ?? []) out.add(word);
  return out;
}

/**
 * Similarity in 0..1: the larger of the normalised Levenshtein ratio (catches small edits and typos)
 * and the token Jaccard index (catches reordered or padded sentences).
 */
export function textSimilarity(a: string, b: string): number {
  const na = normaliseText(a).replace(/[\p{P}\p{S}]/gu, '');
  const nb = normaliseText(b).replace(/[\p{P}\p{S}]/gu, '');
  if (na === '' && nb === '') return 1;
  if (na === '' || nb === '') return 0;
  const longest = Math.max(codePointLength(na), codePointLength(nb));
  const ratio = 1 - distance(na, nb) / longest;
  const ta = comparableTokens(na);
  const tb = comparableTokens(nb);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  const union = ta.size + tb.size - shared;
  const jaccard = union === 0 ? 0 : shared / union;
  return Math.max(ratio, jaccard);
}

/**
 * A key segment from free text: NFKC, lower case, punctuation dropped, spaces → `-`, at most 40 code
 * points. Han text stays Han: only objects in the lexicon get a language-independent id.
 */
export function slugify(text: string): string {
  const slug = normaliseText(text)
    .replace(/[^\p{L}\p{N}+#\s-]/gu, ' ')
    .trim()
    .replace(/\s+/gu, '-')
    .replace(/-+/gu, '-');
  return Array.from(slug).slice(0, 40).join('').replace(/-+$/u, '');
}
