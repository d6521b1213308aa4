import { NLTK_STOP_WORDS } from './stopwords';

/**
 * How the baselines cut text into terms (README "Plain SQLite FTS5 BM25"): English words with stop words removed;
 * Chinese as overlapping character bigrams (a run of one Han character stays one term). The same function feeds
 * FTS5, MiniSearch and Orama for Chinese, since none of them splits Han text by default.
 */
export type BaselineLanguage = 'en' | 'zh';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
const HAN = /\p{Script=Han}/u;

/** Lower-cased words, stop words out, in order, repeats kept (the caller decides whether repeats count). */
export function englishTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const word = m[0].replace(/’/g, "'");
    if (!NLTK_STOP_WORDS.has(word)) out.push(word);
  }
  return out;
}

/** Han runs → bigrams (猫 → 猫; 圣诞节 → 圣诞 诞节); other words lower-cased as in englishTerms. */
export function bigramTerms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const run = m[0];
    if (!HAN.test(run)) {
      if (!NLTK_STOP_WORDS.has(run)) out.push(run);
      continue;
    }
    // A run may mix Han and Latin/digits (3月): split it into Han and non-Han pieces first.
    for (const piece of run.match(/\p{Script=Han}+|[^\p{Script=Han}]+/gu) ?? []) {
      if (!HAN.test(piece)) {
        out.push(piece);
        continue;
      }
      const chars = [...piece];
      if (chars.length === 1) out.push(piece);
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
    }
  }
  return out;
}

export function termsFor(language: BaselineLanguage): (text: string) => string[] {
  return language === 'zh' ? bigramTerms : englishTerms;
}
