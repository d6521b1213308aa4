import { heuristicSessionSummary } from '../../domain/conversation/session-title';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import { createRunRepo } from './run-repo';

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
 *
 * Deleted text must not live on elsewhere (the point of a cleanup is privacy): besides the turns it removes
 * every summary that covers one of them (a block that mixes old and kept turns too — the next summary pass
 * summarises what is left), the prompts of context runs that could have quoted them, the title and snippet a
 * kept conversation took from a deleted first exchange, and the results of recent writes (op_results).
 * Long-term memories learned from those turns stay: they are the user's to manage in the memory manager.
 */
export function createCleanup(env: Pick<EngineEnv, 'driver' | 'clock'>) {
  const { driver, clock } = env;
  const runs = createRunRepo(env);
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
    // Whatever the deleted turns said may be quoted in a recent run's prompt or a recent write's result.
    runs.pruneMessages(0);
    driver.run('DELETE FROM op_results');
    return {
      conversations_deleted: before.c - count('SELECT COUNT(*) AS n FROM sessions'),
      turns_deleted: before.t - count('SELECT COUNT(*) AS n FROM messages'),
      summaries_deleted: before.s - count('SELECT COUNT(*) AS n FROM summaries'),
      symbols_deleted: before.y - count('SELECT COUNT(*) AS n FROM symbol_index'),
      space_freed_kb: Math.max(0, Math.round(((freePages() - before.f) * pageSize()) / 1024)),
    };
  }

  /** The title a conversation got from its first exchange, for each conversation whose first turn will go. */
  function derivedTitles(cutoff: number): Map<string, string> {
    const rows = driver.all<{ sessionId: string; content: string }>(
      `SELECT session_id AS sessionId, content FROM messages
       WHERE turn_no = 1 AND role = 'user' AND created_at < ? AND session_id IN (SELECT id FROM sessions WHERE last_active >= ?)`,
      [cutoff, cutoff],
    );
    return new Map(rows.map((r) => [r.sessionId, heuristicSessionSummary(r.content, '').title]));
  }

  /** A kept conversation whose first exchange was deleted is named by its first remaining one (a name the user gave stays). */
  function renameFromRemaining(titles: ReadonlyMap<string, string>): void {
    for (const [sessionId, derived] of titles) {
      const first = driver.all<{ role: string; content: string }>(
        `SELECT role, content FROM messages WHERE session_id = ? AND turn_no = (SELECT MIN(turn_no) FROM messages WHERE session_id = ?) ORDER BY id`,
        [sessionId, sessionId],
      );
      const user = first.find((m) => m.role === 'user')?.content ?? '';
      const reply = first.find((m) => m.role === 'assistant')?.content ?? '';
      const next = user || reply ? heuristicSessionSummary(user, reply) : { title: '', snippet: '' };
      driver.run('UPDATE sessions SET title = CASE WHEN title = ? THEN ? ELSE title END, snippet = ? WHERE id = ?', [derived, next.title, next.snippet, sessionId]);
    }
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
      // 002 SC-LTM-006: turns older than the cutoff go, in every conversation; the last 30 days stay.
      const cutoff = clock.now() - mode.olderThanDays * 86_400_000;
      return measure(() => {
        const titles = derivedTitles(cutoff);
        // Summaries reaching back to a deleted turn (their text quotes it), then the turns …
        driver.run(
          `DELETE FROM summaries WHERE start_turn <= (SELECT MAX(m.turn_no) FROM messages m
             WHERE m.session_id = summaries.session_id AND m.created_at < ?)`,
          [cutoff],
        );
        driver.run('DELETE FROM messages WHERE created_at < ?', [cutoff]);
        // … conversations that were last active before the cutoff, and the chat turns' context runs made before it.
        driver.run('DELETE FROM sessions WHERE last_active < ?', [cutoff]);
        driver.run("DELETE FROM context_runs WHERE kind = 'chat' AND created_at < ?", [cutoff]);
        renameFromRemaining(titles);
      });
    },
  };
}
