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

/** Stems of the text's words; CJK runs are matched as substrings instead (no segmenter: this runs per candidate). */
function words(text: string): string[] {
  return text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
}

/** Weighted share (0..1) of the terms found in `text`; CJK terms are found as substrings. */
export function termCoverage(text: string, terms: readonly WeightedTerm[]): number {
  if (terms.length === 0) return 0;
  const normal = text.normalize('NFKC').toLowerCase();
  const own = new Set(words(text).map(lightStem));
  let found = 0;
  let total = 0;
  for (const t of terms) {
    total += t.weight;
    const hit = hasCjk(t.keyword)
      ? normal.includes(t.keyword.normalize('NFKC').toLowerCase())
      : words(t.keyword).every((w) => own.has(lightStem(w)));
    if (hit) found += t.weight;
  }
  return total > 0 ? found / total : 0;
}
