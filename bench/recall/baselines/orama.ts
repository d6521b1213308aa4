import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { termsFor, type BaselineLanguage } from './tokenize';
import type { Baseline, BaselineDoc, BaselineIndex } from './types';

/**
 * Orama with its defaults: BM25 over one string field, its English tokenizer, `threshold` 1 (documents matching
 * any term). For Chinese the baselines' character bigrams replace the tokenizer, which has no Chinese splitter
 * built in.
 */
export const oramaBaseline: Baseline = {
  name: 'orama',
  async build(docs: readonly BaselineDoc[], language: BaselineLanguage): Promise<BaselineIndex> {
    const bigrams = termsFor('zh');
    const components =
      language === 'zh'
        ? { tokenizer: { language: 'chinese-bigrams', normalizationCache: new Map<string, string>(), tokenize: (raw: string) => bigrams(raw) } }
        : undefined;
    const db: AnyOrama = create({ schema: { key: 'string', text: 'string' } as const, ...(components ? { components } : {}) });
    // Orama keeps its own ids; ours ride along in `key`.
    await insertMultiple(db, docs.map((d) => ({ key: d.id, text: d.text })), 1000);
    return {
      async search(text, limit) {
        const res = await search(db, { term: text, properties: ['text'], limit });
        return res.hits.map((h) => ({ id: String((h.document as unknown as { key: string }).key), score: h.score }));
      },
      close() {},
    };
  },
};
