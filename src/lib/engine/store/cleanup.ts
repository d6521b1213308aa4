import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';

export interface CleanupReport {
  conversations_deleted: number;
  turns_deleted: number;
  summaries_deleted: number;
  symbols_deleted: number;
  space_freed_kb: number;
}

export type CleanupMode = { olderThanDays: number } | { sessionId: string } | { all: true; confirm: boolean };

/**
 * Seed 002 REQ-LTM-007 memory_cleanup. Messages, their summaries and their symbol index entries go
 * together (foreign keys cascade, FTS rows follow by trigger). space_freed_kb counts the database
 * pages the deletion released for reuse.
 */
export function createCleanup({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  const count = (sql: string, params: (string | number)[] = []) => driver.get<{ n: number }>(sql, params)?.n ?? 0;
  const freePages = () => count('SELECT freelist_count AS n FROM pragma_freelist_count()');
  const pageSize = () => count('SELECT page_size AS n FROM pragma_page_size()');

  function measure(run: () => void): CleanupReport {
    const before = {
      c: count('SELECT COUNT(*) AS n FROM sessions'),
      t: count('SELECT COUNT(*) AS n FROM messages'),
      s: count('SELECT COUNT(*) AS n FROM summaries'),
      y: count('SELECT COUNT(*) AS n FROM symbol_index'),
      f: freePages(),
    };
    run();
    return {
      conversations_deleted: before.c - count('SELECT COUNT(*) AS n FROM sessions'),
      turns_deleted: before.t - count('SELECT COUNT(*) AS n FROM messages'),
      summaries_deleted: before.s - count('SELECT COUNT(*) AS n FROM summaries'),
      symbols_deleted: before.y - count('SELECT COUNT(*) AS n FROM symbol_index'),
      space_freed_kb: Math.max(0, Math.round(((freePages() - before.f) * pageSize()) / 1024)),
    };
  }

  return {
    run(mode: CleanupMode): CleanupReport {
      if ('all' in mode) {
        if (!mode.confirm)
          throw new EngineError('MEMORY_CLEAR_CONFIRM_REQUIRED', 'Deleting every conversation needs `confirm: true`. Nothing was deleted.', { field: 'confirm' });
        return measure(() => driver.run('DELETE FROM sessions'));
      }
      if ('sessionId' in mode) {
        if (!driver.get('SELECT 1 FROM sessions WHERE id = ?', [mode.sessionId]))
          throw new EngineError('NOT_FOUND', 'No conversation with that `sessionId`.', { field: 'sessionId' });
        return measure(() => driver.run('DELETE FROM sessions WHERE id = ?', [mode.sessionId]));
      }
      const cutoff = clock.now() - mode.olderThanDays * 86_400_000;
      return measure(() => {
        // Turns older than the cutoff go, in every conversation …
        driver.run('DELETE FROM messages WHERE created_at < ?', [cutoff]);
        // … then summaries none of whose turns remain …
        driver.run(
          `DELETE FROM summaries WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = summaries.session_id
             AND m.turn_no BETWEEN summaries.start_turn AND summaries.end_turn)`,
        );
        // … and conversations that were last active before the cutoff.
        driver.run('DELETE FROM sessions WHERE last_active < ?', [cutoff]);
      });
    },
  };
}
