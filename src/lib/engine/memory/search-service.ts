import type { Logger } from '../../domain/log';
import { likeKeywordScore, normaliseBm25, type MemoryRecord } from '../../domain/memory';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { extractKeywords } from '../../domain/text/keywords';
import { segmentWords } from '../../domain/text/segment';
import { likeHaystack, type MemoryListFilters, type MemoryQuery, type MemorySort } from '../store/memory-query';
import type { MemorySearchHit, MemorySearchResult } from './types';

const WORD = /[\p{L}\p{N}]/u;

/** Search words: keywords without stop words, or, when a query is only stop words, its plain words. */
function searchTerms(text: string): string[] {
  const keywords = extractKeywords(text);
  return keywords.length > 0 ? keywords : segmentWords(text).filter((w) => WORD.test(w));
}

/**
 * Keyword search over memories for people and for the model:
 *  - `search`: seed 000 "主动记忆搜索" (MemoryService.SearchMemories(keyword, timeRange)), behind the
 *    model's search_memories tool: any keyword, created_at within the range, best match first;
 *  - `list`: the memory manager's list with filters, a search box and a total for pagination.
 * Both use FTS5 and fall back to a substring (LIKE) match when FTS5 fails or finds nothing, so partial
 * words and one-character Chinese queries still find what they name.
 */
export function createMemorySearch(deps: { query: MemoryQuery; log: Logger }) {
  const { query, log } = deps;

  function ftsOrNull<T>(run: () => T): T | null {
    try {
      return run();
    } catch (err) {
      log.warn('memory.fts-failed', { stage: 'search', cause: err instanceof Error ? err.name : 'unknown' });
      return null;
    }
  }

  return {
    search(input: { keyword: string; fromMs?: number; toMs?: number; limit: number; projectId?: string | null }): MemorySearchResult {
      const keywords = searchTerms(input.keyword);
      const needles = keywords.length > 0 ? keywords : [input.keyword.trim()];
      const scope = { fromMs: input.fromMs, toMs: input.toMs, projectId: input.projectId };
      const match = buildMatchQuery(keywords);
      let items: MemorySearchHit[] = [];
      const rows = match ? ftsOrNull(() => query.ftsCandidates(match, scope, input.limit)) : null;
      if (rows && rows.length > 0) {
        const scores = normaliseBm25(rows.map((r) => r.rank));
        items = rows.map((r, i) => ({ memory: r.memory, keywordScore: scores[i] ?? 0, via: 'fts' }));
      } else {
        const found: MemoryRecord[] = query.likeCandidates(needles, scope, Math.max(input.limit * 4, 50));
        items = found
          .map((m): MemorySearchHit => ({ memory: m, keywordScore: likeKeywordScore(likeHaystack(m), needles), via: 'like' }))
          .sort((a, b) => b.keywordScore - a.keywordScore || b.memory.createdAt - a.memory.createdAt)
          .slice(0, input.limit);
      }
      return { items, keywords };
    },

    list(input: MemoryListFilters & { query?: string; sort: MemorySort; limit: number; offset: number }) {
      const { query: text, sort, limit, offset, ...filters } = input;
      const page = { filters, sort, limit, offset };
      const trimmed = text?.trim() ?? '';
      if (trimmed === '') return query.list(page);
      const match = buildMatchQuery(searchTerms(trimmed), { op: 'AND' });
      const byFts = match ? ftsOrNull(() => query.list({ ...page, text: { match } })) : null;
      if (byFts && byFts.total > 0) return byFts;
      return query.list({ ...page, text: { like: trimmed } });
    },
  };
}

export type MemorySearch = ReturnType<typeof createMemorySearch>;
