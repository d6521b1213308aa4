import MiniSearch from 'minisearch';
import { termsFor, type BaselineLanguage } from './tokenize';
import type { Baseline, BaselineDoc, BaselineIndex } from './types';

/**
 * MiniSearch with its defaults (its own tokenizer and BM25+ scoring, terms OR-ed), prefix and fuzzy matching off —
 * which are its defaults too, set explicitly because both trade precision for recall on partial words, and every
 * other system here matches whole terms. For Chinese it gets the baselines' character bigrams: its default
 * tokenizer keeps a whole run of Han characters as one term, which would make it match almost nothing.
 */
export const minisearchBaseline: Baseline = {
  name: 'minisearch',
  async build(docs: readonly BaselineDoc[], language: BaselineLanguage): Promise<BaselineIndex> {
    const tokenize = language === 'zh' ? termsFor('zh') : undefined;
    const index = new MiniSearch<BaselineDoc>({
      fields: ['text'],
      storeFields: [],
      ...(tokenize ? { tokenize } : {}),
      searchOptions: { prefix: false, fuzzy: false, combineWith: 'OR' },
    });
    index.addAll(docs as BaselineDoc[]);
    return {
      search: (text, limit) => index.search(text).slice(0, limit).map((r) => ({ id: String(r.id), score: r.score })),
      close: () => index.removeAll(),
    };
  },
};
