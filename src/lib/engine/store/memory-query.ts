import type { MemoryCategory, MemoryRecord, MemorySource } from '../../domain/memory';
import type { EngineEnv } from '../env';
import type { SqlParam } from './driver';
import { toMemory, type MemoryRow } from './memory-rows';

/**
 * The read side of `memories`: full-text candidates (FTS5 MATCH, bm25), the LIKE fallback, the
 * preference lane and the memory manager's filtered, paginated list. Nothing here writes.
 */

export interface MemoryListFilters {
  category?: MemoryCategory;
  source?: MemorySource;
  scope?: MemoryRecord['scope'];
  status: MemoryRecord['status'] | 'all';
  /** Only memories of this project (scope project); null = only global ones. */
  projectId?: string | null;
}

export type MemorySort = 'updated' | 'created' | 'confidence' | 'lastAccessed';

/** Which memories a retrieval may see: active ones, global plus the current project's. */
export interface CandidateScope {
  projectId?: string | null;
  fromMs?: number;
  toMs?: number;
  /** Include superseded memories (the manager's search does, retrieval never). */
  anyStatus?: boolean;
}

export type RankedRow = { memory: MemoryRecord; rank: number };

const ORDER: Readonly<Record<MemorySort, string>> = {
  updated: 'm.updated_at DESC, m.rid DESC',
  created: 'm.created_at DESC, m.rid DESC',
  confidence: 'm.confidence DESC, m.updated_at DESC, m.rid DESC',
  lastAccessed: 'COALESCE(m.last_accessed, 0) DESC, m.updated_at DESC, m.rid DESC',
};

/** The text a LIKE fallback looks in (and likeKeywordScore scores): content, tags, key and value. */
export const LIKE_HAYSTACK_SQL = "(m.content || ' ' || m.tags || ' ' || m.key || ' ' || m.value)";

export function likeHaystack(m: Pick<MemoryRecord, 'content' | 'tags' | 'key' | 'value'>): string {
  return [m.content, JSON.stringify(m.tags), m.key, JSON.stringify(m.value)].join(' ');
}

export function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}

function scopeSql(scope: CandidateScope): { sql: string; params: SqlParam[] } {
  const where: string[] = [];
  const params: SqlParam[] = [];
  if (!scope.anyStatus) where.push("m.status = 'active'");
  if (scope.projectId) (where.push('(m.project_id IS NULL OR m.project_id = ?)'), params.push(scope.projectId));
  else where.push('m.project_id IS NULL');
  if (scope.fromMs !== undefined) (where.push('m.created_at >= ?'), params.push(scope.fromMs));
  if (scope.toMs !== undefined) (where.push('m.created_at <= ?'), params.push(scope.toMs));
  return { sql: where.join(' AND '), params };
}

function filterSql(f: MemoryListFilters): { sql: string; params: SqlParam[] } {
  const where: string[] = [];
  const params: SqlParam[] = [];
  if (f.category) (where.push('m.category = ?'), params.push(f.category));
  if (f.source) (where.push('m.source = ?'), params.push(f.source));
  if (f.scope) (where.push('m.scope = ?'), params.push(f.scope));
  if (f.status !== 'all') (where.push('m.status = ?'), params.push(f.status));
  if (f.projectId !== undefined) {
    if (f.projectId === null) where.push('m.project_id IS NULL');
    else (where.push('m.project_id = ?'), params.push(f.projectId));
  }
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

export function createMemoryQuery({ driver }: Pick<EngineEnv, 'driver'>) {
  return {
    /**
     * FTS5 candidates, best first, with bm25 as `rank` (lower is better; the key column and the CJK character
     * pairs count half: a shared pair is weaker evidence than a shared word).
     * Throws when FTS5 fails (a damaged or missing index): the caller falls back to LIKE.
     */
    ftsCandidates(match: string, scope: CandidateScope, limit: number): RankedRow[] {
      const { sql, params } = scopeSql(scope);
      return driver
        .all<MemoryRow & { fts_rank: number }>(
          `SELECT m.*, bm25(memories_fts, 1.0, 0.5, 0.5) AS fts_rank FROM memories_fts JOIN memories m ON m.rid = memories_fts.rowid
           WHERE memories_fts MATCH ? AND ${sql} ORDER BY fts_rank LIMIT ?`,
          [match, ...params, limit],
        )
        .map(({ fts_rank, ...row }) => ({ memory: toMemory(row), rank: fts_rank }));
    },
    /** Memories by rid within the scope (the embedding lane's nearest, issue 18), with their rid. */
    byRids(rids: readonly number[], scope: CandidateScope): { rid: number; memory: MemoryRecord }[] {
      if (rids.length === 0) return [];
      const { sql, params } = scopeSql(scope);
      return driver
        .all<MemoryRow & { rid: number }>(`SELECT m.* FROM json_each(?) c JOIN memories m ON m.rid = c.value WHERE ${sql}`, [JSON.stringify(rids), ...params])
        .map((row) => ({ rid: row.rid, memory: toMemory(row) }));
    },
    /** 001 "Fallback to LIKE matching": memories containing any of the keywords (newest first). */
    likeCandidates(keywords: readonly string[], scope: CandidateScope, limit: number): MemoryRecord[] {
      const needles = [...new Set(keywords.filter((k) => k.trim() !== ''))];
      if (needles.length === 0) return [];
      const { sql, params } = scopeSql(scope);
      const any = needles.map(() => `${LIKE_HAYSTACK_SQL} LIKE ? ESCAPE '\\'`).join(' OR ');
      return driver
        .all<MemoryRow>(`SELECT m.* FROM memories m WHERE (${any}) AND ${sql} ORDER BY m.updated_at DESC LIMIT ?`, [
          ...needles.map(likePattern),
          ...params,
          limit,
        ])
        .map(toMemory);
    },
    /** 001 "Category-based candidate recall": the preference memories a preference question considers. */
    preferenceLane(scope: CandidateScope, limit: number): MemoryRecord[] {
      const { sql, params } = scopeSql(scope);
      return driver
        .all<MemoryRow>(
          `SELECT m.* FROM memories m WHERE m.category = 'preference' AND ${sql}
           ORDER BY m.confidence DESC, COALESCE(m.last_accessed, m.created_at) DESC LIMIT ?`,
          [...params, limit],
        )
        .map(toMemory);
    },
    /**
     * The manager's list: filters, an optional text condition (an FTS MATCH on rids, or a LIKE needle),
     * a total for pagination.
     */
    list(opts: {
      filters: MemoryListFilters;
      text?: { match: string } | { like: string };
      sort: MemorySort;
      limit: number;
      offset: number;
    }): { items: MemoryRecord[]; total: number } {
      const f = filterSql(opts.filters);
      const where = [f.sql];
      const params = [...f.params];
      if (opts.text && 'match' in opts.text) {
        where.push('m.rid IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)');
        params.push(opts.text.match);
      } else if (opts.text) {
        where.push(`${LIKE_HAYSTACK_SQL} LIKE ? ESCAPE '\\'`);
        params.push(likePattern(opts.text.like));
      }
      const clause = where.join(' AND ');
      const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM memories m WHERE ${clause}`, params)?.n ?? 0;
      const rows = driver.all<MemoryRow>(`SELECT m.* FROM memories m WHERE ${clause} ORDER BY ${ORDER[opts.sort]} LIMIT ? OFFSET ?`, [
        ...params,
        opts.limit,
        opts.offset,
      ]);
      return { items: rows.map(toMemory), total };
    },
  };
}

export type MemoryQuery = ReturnType<typeof createMemoryQuery>;
