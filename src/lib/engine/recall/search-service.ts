import type { Message } from '../../domain/conversation/types';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { hasCjk, segmentWords } from '../../domain/text/segment';
import { markdownToPlain } from '../../domain/text/markdown-plain';
import { highlightSnippet } from '../../domain/text/snippet';
import type { EngineEnv } from '../env';
import { toMessage, type MessageRow } from '../store/conversation-rows';
import { MESSAGE_BM25, messageTextMatch } from '../store/fts-columns';

export interface SearchFilters {
  sessionId?: string;
  from?: number;
  to?: number;
  role?: 'user' | 'assistant';
  starredOnly?: boolean;
}

export interface SearchHit {
  message: Message;
  sessionTitle: string;
  snippet: ReturnType<typeof highlightSnippet>;
}

/**
 * The recall page's full-text search over every conversation: all words must match (falling back to
 * any word), filters by session, date, role and star, and highlighted snippets. Very short CJK queries
 * (one or two characters) that the word index misses fall back to a substring scan (TECH-NOTES).
 */
export function createSearchService({ driver }: Pick<EngineEnv, 'driver'>) {
  function filterSql(f: SearchFilters): { sql: string; params: (string | number)[] } {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (f.sessionId) (where.push('m.session_id = ?'), params.push(f.sessionId));
    if (f.from !== undefined) (where.push('m.created_at >= ?'), params.push(f.from));
    if (f.to !== undefined) (where.push('m.created_at < ?'), params.push(f.to));
    if (f.role) (where.push('m.role = ?'), params.push(f.role));
    if (f.starredOnly) where.push('(m.is_collected = 1 OR s.is_collected = 1)');
    return { sql: where.length ? ` AND ${where.join(' AND ')}` : '', params };
  }

  function runFts(match: string, f: SearchFilters, limit: number, offset: number) {
    const { sql, params } = filterSql(f);
    const base = `FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
      WHERE messages_fts MATCH ?${sql}`;
    const text = messageTextMatch(match);
    const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n ${base}`, [text, ...params])?.n ?? 0;
    const rows = driver.all<MessageRow & { title: string }>(
      `SELECT m.*, s.title ${base} ORDER BY ${MESSAGE_BM25} LIMIT ? OFFSET ?`,
      [text, ...params, limit, offset],
    );
    return { total, rows };
  }

  function runLike(needle: string, f: SearchFilters, limit: number, offset: number) {
    const { sql, params } = filterSql(f);
    const like = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const base = `FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.content LIKE ? ESCAPE '\\'${sql}`;
    const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n ${base}`, [like, ...params])?.n ?? 0;
    const rows = driver.all<MessageRow & { title: string }>(`SELECT m.*, s.title ${base} ORDER BY m.created_at DESC LIMIT ? OFFSET ?`, [
      like,
      ...params,
      limit,
      offset,
    ]);
    return { total, rows };
  }

  return {
    search(input: { query: string } & SearchFilters & { limit: number; offset: number }): { items: SearchHit[]; total: number; mode: 'all' | 'any' | 'substring' } {
      const terms = segmentWords(input.query).filter((w) => /[\p{L}\p{N}]/u.test(w));
      let mode: 'all' | 'any' | 'substring' = 'all';
      let result = { total: 0, rows: [] as (MessageRow & { title: string })[] };
      const all = buildMatchQuery(terms, { op: 'AND' });
      if (all) result = runFts(all, input, input.limit, input.offset);
      if (result.total === 0 && terms.length > 1) {
        const any = buildMatchQuery(terms, { op: 'OR' });
        if (any) (result = runFts(any, input, input.limit, input.offset)), (mode = 'any');
      }
      const trimmed = input.query.trim();
      if (result.total === 0 && hasCjk(trimmed) && Array.from(trimmed).length <= 2) {
        result = runLike(trimmed, input, input.limit, input.offset);
        mode = 'substring';
      }
      const highlightTerms = mode === 'substring' ? [trimmed] : terms;
      return {
        total: result.total,
        mode,
        items: result.rows.map((r) => ({ message: toMessage(r), sessionTitle: r.title, snippet: highlightSnippet(markdownToPlain(r.content), highlightTerms, { maxChars: 180 }) })),
      };
    },
  };
}
