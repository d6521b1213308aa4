import { EngineError } from '../../domain/errors';
import type { Session } from '../../domain/conversation/types';
import type { EngineEnv } from '../env';
import { toSession, type SessionRow } from './conversation-rows';

function filterClause(opts: { starredOnly: boolean; projectId?: string | null }): { clause: string; params: (string | number)[] } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (opts.starredOnly) where.push('is_collected = 1');
  if (opts.projectId !== undefined) {
    where.push(opts.projectId === null ? 'project_id IS NULL' : 'project_id = ?');
    if (opts.projectId !== null) params.push(opts.projectId);
  }
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export function createSessionRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string): Session | undefined => {
    const row = driver.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
    return row ? toSession(row) : undefined;
  };
  const mustFind = (id: string): Session => {
    const s = find(id);
    if (!s) throw new EngineError('NOT_FOUND', 'No conversation with that `id` (it may have been deleted).', { field: 'id' });
    return s;
  };
  return {
    find,
    mustFind,
    create(input: { projectId?: string | null; title?: string; id?: string }): Session {
      const now = clock.now();
      const id = input.id ?? ids();
      if (input.projectId && !driver.get('SELECT 1 FROM projects WHERE id = ?', [input.projectId]))
        throw new EngineError('NOT_FOUND', 'No project with that `projectId`.', { field: 'projectId' });
      driver.run(
        'INSERT INTO sessions (id, project_id, title, created_at, last_active) VALUES (?, ?, ?, ?, ?)',
        [id, input.projectId ?? null, input.title ?? '', now, now],
      );
      return mustFind(id);
    },
    list(opts: { limit: number; offset: number; starredOnly: boolean; projectId?: string | null }): { items: Session[]; total: number } {
      const { clause, params } = filterClause(opts);
      const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM sessions ${clause}`, params)?.n ?? 0;
      const rows = driver.all<SessionRow>(
        `SELECT * FROM sessions ${clause} ORDER BY last_active DESC, id LIMIT ? OFFSET ?`,
        [...params, opts.limit, opts.offset],
      );
      return { items: rows.map(toSession), total };
    },
    /** Those of `ids` that exist and pass the filter, in list order, and the filter's total. */
    getMany(opts: { ids: readonly string[]; starredOnly: boolean; projectId?: string | null }): { items: Session[]; total: number } {
      const { clause, params } = filterClause(opts);
      const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM sessions ${clause}`, params)?.n ?? 0;
      const rows = driver.all<SessionRow>(
        `SELECT * FROM sessions ${clause ? `${clause} AND` : 'WHERE'} id IN (SELECT value FROM json_each(?)) ORDER BY last_active DESC, id`,
        [...params, JSON.stringify(opts.ids)],
      );
      return { items: rows.map(toSession), total };
    },
    update(id: string, patch: { title?: string; isCollected?: boolean; snippet?: string; summarizedAt?: number }): Session {
      mustFind(id);
      if (patch.title !== undefined) driver.run('UPDATE sessions SET title = ? WHERE id = ?', [patch.title, id]);
      if (patch.isCollected !== undefined) driver.run('UPDATE sessions SET is_collected = ? WHERE id = ?', [patch.isCollected, id]);
      if (patch.snippet !== undefined) driver.run('UPDATE sessions SET snippet = ? WHERE id = ?', [patch.snippet, id]);
      if (patch.summarizedAt !== undefined) driver.run('UPDATE sessions SET summarized_at = ? WHERE id = ?', [patch.summarizedAt, id]);
      return mustFind(id);
    },
    /** A new user turn: returns its number. */
    openTurn(id: string, now: number): number {
      const row = driver.get<{ turn_count: number }>(
        'UPDATE sessions SET turn_count = turn_count + 1, last_active = ? WHERE id = ? RETURNING turn_count',
        [now, id],
      );
      if (!row) throw new EngineError('NOT_FOUND', 'No conversation with that `sessionId`.', { field: 'sessionId' });
      return row.turn_count;
    },
    touch(id: string, now: number): void {
      driver.run('UPDATE sessions SET last_active = MAX(last_active, ?) WHERE id = ?', [now, id]);
    },
  };
}

export type SessionRepo = ReturnType<typeof createSessionRepo>;
