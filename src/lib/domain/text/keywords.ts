import { hasCjk, isIdentifier, scanTokens, type ScannedToken } from './segment';
import { STOP_WORDS } from './stopwords';

/** Aspect/structural particles that the segmenter glues to a verb (去了, 用过, 说着, 写的). */
const TRAILING_PARTICLE = /[了过着的地得]$/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const DIGITS_ONLY = /^\p{N}+$/u;
const POSSESSIVE = /['’]s$/i;
const YEAR = /^(?:19|20)\d\d$/;
const SINGLE_LATIN = /^\p{Script=Latin}$/u;

/** True for zh/en function words, pronouns, auxiliaries, question words and relative time words (stopwords/). */
export function isStopWord(token: string): boolean {
  const t = token.toLowerCase().replace(/’/g, "'");
  if (STOP_WORDS.has(t)) return true;
  // 去了 = 去 + 了: a stop word plus an aspect particle carries no more topic than the stop word alone.
  if (t.length > 1 && TRAILING_PARTICLE.test(t) && hasCjk(t)) return STOP_WORDS.has(t.slice(0, -1));
  return false;
}

/**
 * Single CJK characters (猫, 书) are real content but weak evidence: they stay keywords, yet are the first to go
 * when `max` trims. Everything else ranks equal, so the order of first appearance decides.
 */
function strength(token: string): number {
  if (isIdentifier(token)) return 2;
  return [...token].length === 1 && hasCjk(token) ? 0 : 1;
}

function isUsable(token: string): boolean {
  if (!WORD_CHAR.test(token)) return false;
  if (SINGLE_LATIN.test(token)) return false;
  // Bare numbers are noise as keywords, and years are time (time-expressions.ts); 5000 or 404 may be content.
  if (DIGITS_ONLY.test(token) && (token.length < 3 || YEAR.test(token))) return false;
  return !isStopWord(token);
}

/**
 * Meaningful query keywords, zh+en mixed (001 "Keyword extraction from user message"): stop words removed,
 * de-duplicated case-insensitively, in order of first appearance, original case kept. With `max`, the strongest
 * `max` keywords are kept (identifiers > words > single CJK characters), still in order of appearance.
 */
export function extractKeywords(text: string, opts: { max?: number } = {}): string[] {
  const seen = new Set<string>();
  const found: string[] = [];
  for (const token of candidates(scanTokens(text))) {
    const key = token.toLowerCase();
    if (seen.has(key) || !isUsable(token)) continue;
    seen.add(key);
    found.push(token);
  }
  const max = opts.max;
  if (max === undefined || found.length <= max) return found;
  if (max <= 0) return [];
  const ranked = found.map((token, index) => ({ token, index, strength: strength(token) }));
  ranked.sort((a, b) => b.strength - a.strength || a.index - b.index);
  return ranked
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((r) => r.token);
}

const isSingleCjk = (t: ScannedToken) => t.cjk && [...t.text].length === 1;

/**
 * Tokens, with one repair: the segmenter splits words missing from its dictionary into single characters
 * (缓存 → 缓|存). A run of two or more adjacent single CJK characters that are not stop words is taken as one
 * word again; `buildMatchQuery` turns it back into the phrase "缓 存", which is how the index holds it.
 */
function candidates(tokens: readonly ScannedToken[]): string[] {
  const out: string[] = [];
  let run: ScannedToken[] = [];
  const flush = () => {
    if (run.length > 1) out.push(run.map((t) => t.text).join(''));
    else if (run.length === 1) out.push(run[0]!.text);
    run = [];
  };
  for (const t of tokens) {
    const prev = run[run.length - 1];
    if (isSingleCjk(t) && !isStopWord(t.text)) {
      if (prev && prev.end !== t.start) flush();
      run.push(t);
      continue;
    }
    flush();
    // Priya's → Priya: as a phrase "priya s" the possessive would miss every plain "Priya".
    out.push(t.cjk ? t.text : t.text.replace(POSSESSIVE, ''));
  }
  flush();
  return out;
}
