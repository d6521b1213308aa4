import Database from 'better-sqlite3';
import { termsFor, type BaselineLanguage } from './tokenize';
import type { Baseline, BaselineDoc, BaselineIndex, ScoredId } from './types';

/**
 * README "Plain SQLite FTS5 BM25": porter unicode61, stop words removed from the query, terms OR-ed, ranked by
 * bm25(). Chinese is indexed and queried as character bigrams (README: MADial "character bigrams"). Native
 * SQLite (better-sqlite3) in memory: FTS5 and bm25() are the same code as in sqlite-wasm, only faster to build.
 */
export const fts5Baseline: Baseline = {
  name: 'fts5-bm25',
  async build(docs: readonly BaselineDoc[], language: BaselineLanguage): Promise<BaselineIndex> {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, body, tokenize = 'porter unicode61')");
    const insert = db.prepare('INSERT INTO docs (id, body) VALUES (?, ?)');
    const toBody = language === 'zh' ? (text: string) => termsFor('zh')(text).join(' ') : (text: string) => text;
    db.transaction(() => {
      for (const d of docs) insert.run(d.id, toBody(d.text));
    })();
    const query = db.prepare('SELECT id, bm25(docs) AS rank FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?');
    const terms = termsFor(language);
    return {
      search(text: string, limit: number): ScoredId[] {
        const unique = [...new Set(terms(text))];
        if (unique.length === 0) return [];
        // Every term a quoted string: nothing in user text can become FTS5 syntax.
        const match = unique.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
        return (query.all(match, limit) as { id: string; rank: number }[]).map((r) => ({ id: r.id, score: -r.rank }));
      },
      close: () => db.close(),
    };
  },
};
