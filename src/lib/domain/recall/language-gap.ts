/**
 * Issue 15 item 6: word search cannot match a question in one language against memories in another
 * ("我妹妹叫什么名字？" never meets "My sister is called Lena"). Only meaning-based recall (an
 * embedding model) bridges the two. This says when that is the likely reason a question finds nothing,
 * so the page can tell the person why and what would help.
 */
import { detectLanguage } from '../memory/text-norm';

export type TextLanguage = 'zh' | 'en';

export interface LanguageGap {
  query: TextLanguage;
  library: TextLanguage;
}

/** Share of the sampled memories that must be in one language for the library to count as written in it. */
const MAJORITY = 0.6;

/** The language most of the texts are in; null when there are none or they are mixed. */
export function majorityLanguage(texts: readonly string[]): TextLanguage | null {
  const nonEmpty = texts.filter((t) => t.trim() !== '');
  if (nonEmpty.length === 0) return null;
  const zh = nonEmpty.filter((t) => detectLanguage(t) === 'zh').length;
  if (zh / nonEmpty.length >= MAJORITY) return 'zh';
  if ((nonEmpty.length - zh) / nonEmpty.length >= MAJORITY) return 'en';
  return null;
}

/** A gap when the question is in one language, most memories in the other, and meaning-based recall is off. */
export function languageGap(opts: { query: string; library: readonly string[]; semanticOn: boolean }): LanguageGap | null {
  if (opts.semanticOn || opts.query.trim() === '') return null;
  const library = majorityLanguage(opts.library);
  const query = detectLanguage(opts.query);
  return library !== null && library !== query ? { query, library } : null;
}
