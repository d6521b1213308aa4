/**
 * How much of the question a turn covers: the share of its keywords (weighted by rarity) that the turn contains.
 * bm25 over OR-ed terms can rank a turn that repeats one rare word above a turn that holds every word of the
 * question once; coverage tells them apart when the best candidates are re-ranked.
 */
import { hasCjk } from '../text/segment';

export interface WeightedTerm {
  keyword: string;
  /** Rarity weight, e.g. log(1 + turns / turns containing it). */
  weight: number;
  /** Other forms that count as the keyword (an irregular verb's: feel → felt). */
  forms?: readonly string[];
}

/**
 * A light English suffix stripper for comparing words on both sides (not the index's porter stemmer, which the
 * engine cannot call): researching / researched / researches → research, stories → story.
 */
export function lightStem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/u, '');
  if (w.length <= 4 || !/^[a-z]+$/u.test(w)) return w;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  w = w.replace(/(?:ing|ed|es|ly|s)$/u, '');
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

const WORD = /[\p{L}\p{N}_]+/gu;
const ASCII = /^[\x00-\x7f]*$/u;

/** Lower-cased NFKC text; ASCII (most of a long code answer) needs no normalising. */
const normalise = (text: string) => (ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase());

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const isWordChar = (ch: string | undefined) =>
  ch !== undefined && (ch.charCodeAt(0) < 128 ? /[A-Za-z0-9_]/.test(ch) : WORD_CHAR.test(ch));

type Stemmer = (word: string) => string;

/** Does the (normalised) text hold a word whose stem is `stem`? Words carrying it start with `needle`. */
function stemMatcher(stem: string, stemOf: Stemmer): (normal: string) => boolean {
  // A stem is its word minus a suffix, except "stories" → "story": the y may be an ie in the word.
  const needle = stem.length > 1 && stem.endsWith('y') ? stem.slice(0, -1) : stem;
  return (normal) => {
    // Each place the letters occur at the start of a word: read the word to its end and compare stems.
    for (let at = normal.indexOf(needle); at >= 0; at = normal.indexOf(needle, at + 1)) {
      if (at > 0 && isWordChar(normal[at - 1])) continue;
      let end = at + needle.length;
      while (end < normal.length && isWordChar(normal[end])) end++;
      if (stemOf(normal.slice(at, end)) === stem) return true;
    }
    return false;
  };
}

/**
 * The weighted share (0..1) of the terms found in a text, as a function built once per question: the second stage
 * calls it for every turn of the head. CJK terms are found as substrings (no segmenter per candidate); other terms
 * when each of their words' stems is the stem of a word of the text. A text that does not contain a stem's letters
 * is ruled out by one substring search, so a long answer without the term costs almost nothing.
 */
export function coverageMatcher(terms: readonly WeightedTerm[]): (text: string) => number {
  const stemOf: Stemmer = lightStem;
  let total = 0;
  for (const t of terms) total += t.weight;
  const matchers = terms.map((t) => {
    if (hasCjk(t.keyword)) {
      const needle = normalise(t.keyword);
      return { weight: t.weight, holds: (normal: string) => normal.includes(needle) };
    }
    const alternatives = [t.keyword, ...(t.forms ?? [])].map((k) => (normalise(k).match(WORD) ?? []).map((w) => stemMatcher(stemOf(w), stemOf)));
    return { weight: t.weight, holds: (normal: string) => alternatives.some((stems) => stems.length > 0 && stems.every((has) => has(normal))) };
  });
  return (text) => {
    if (!(total > 0)) return 0;
    const normal = normalise(text);
    let found = 0;
    for (const m of matchers) if (m.holds(normal)) found += m.weight;
    return found / total;
  };
}

/** Weighted share (0..1) of the terms found in `text` (one text; see coverageMatcher). */
export function termCoverage(text: string, terms: readonly WeightedTerm[]): number {
  return coverageMatcher(terms)(text);
}
