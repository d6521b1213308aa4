import type { EngineEnv } from '../env';

/**
 * SQL of the imports from other apps (issue 14): the conversations an import writes, its run journal
 * (import_runs / import_items, migration "imports") and the background follow-up's queue.
 *
 *   step:      insertSession / appendState ─▶ (messages via message-repo) ─▶ addItem ─▶ touchRun
 *   take back: rollback(run) — created conversations go, appended messages go, turn counts restored
 *   follow-up: pendingItems ─▶ userMessagesFrom ─▶ advance / markFollowedUp
 */
export interface ImportItem {
  runId: string;
  sessionId: string;
  nextMessageId: number;
}

export function createImportRepo({ driver }: Pick<EngineEnv, 'driver'>) {
  return {
    /** The conversation's turn count, or null when there is none with this id. */
    sessionTurns(id: string): number | null {
      return driver.get<{ n: number }>('SELECT turn_count AS n FROM sessions WHERE id = ?', [id])?.n ?? null;
    },
    messagesOf(sessionId: string): { role: 'user' | 'assistant'; content: string }[] {
      return driver.all('SELECT role, content FROM messages WHERE session_id = ? ORDER BY id', [sessionId]);
    },
    insertSession(s: { id: string; title: string; snippet: string; createdAt: number; lastActive: number; summarizedAt: number | null }): void {
      driver.run('INSERT INTO sessions (id, title, snippet, summarized_at, created_at, last_active, turn_count) VALUES (?, ?, ?, ?, ?, ?, 0)', [
        s.id,
        s.title,
        s.snippet,
        s.summarizedAt,
        s.createdAt,
        s.lastActive,
      ]);
    },
    setTurns(sessionId: string, turnCount: number, lastActive: number): void {
      driver.run('UPDATE sessions SET turn_count = ?, last_active = MAX(last_active, ?) WHERE id = ?', [turnCount, lastActive, sessionId]);
    },
    projectExists(id: string): boolean {
      return driver.get('SELECT 1 FROM projects WHERE id = ?', [id]) !== undefined;
    },
    createProject(p: { id: string; name: string; now: number }): void {
      driver.run('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)', [p.id, p.name, p.now, p.now]);
    },
    startRun(r: { id: string; source: string; now: number }): void {
      driver.run("INSERT INTO import_runs (id, source, state, started_at, updated_at) VALUES (?, ?, 'running', ?, ?)", [r.id, r.source, r.now, r.now]);
    },
    runState(id: string): string | null {
      return driver.get<{ state: string }>('SELECT state FROM import_runs WHERE id = ?', [id])?.state ?? null;
    },
    touchRun(id: string, add: { conversations: number; messages: number; now: number }): void {
      driver.run('UPDATE import_runs SET updated_at = ?, conversations = conversations + ?, messages = messages + ? WHERE id = ?', [
        add.now,
        add.conversations,
        add.messages,
        id,
      ]);
    },
    finishRun(id: string, now: number): void {
      driver.run("UPDATE import_runs SET state = 'done', finished_at = ?, updated_at = ? WHERE id = ?", [now, now, id]);
    },
    addItem(i: { runId: string; sessionId: string; created: boolean; priorTurns: number; firstMessageId: number }): void {
      driver.run(
        `INSERT INTO import_items (run_id, session_id, created, prior_turns, first_message_id, next_message_id) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id, session_id) DO NOTHING`,
        [i.runId, i.sessionId, i.created ? 1 : 0, i.priorTurns, i.firstMessageId, i.firstMessageId],
      );
    },
    /** Runs still marked running that no step has touched since `before`. */
    abandonedRuns(before: number): string[] {
      return driver.all<{ id: string }>("SELECT id FROM import_runs WHERE state = 'running' AND updated_at < ?", [before]).map((r) => r.id);
    },
    /** Takes back everything the run wrote; returns the conversations it touched. */
    rollback(runId: string): number {
      const items = driver.all<{ session_id: string; created: number; prior_turns: number; first_message_id: number }>(
        'SELECT session_id, created, prior_turns, first_message_id FROM import_items WHERE run_id = ?',
        [runId],
      );
      for (const it of items) {
        if (it.created) {
          driver.run('DELETE FROM sessions WHERE id = ?', [it.session_id]);
          continue;
        }
        driver.run('DELETE FROM messages WHERE session_id = ? AND id >= ?', [it.session_id, it.first_message_id]);
        driver.run("DELETE FROM summaries WHERE session_id = ? AND end_turn > ?", [it.session_id, it.prior_turns]);
        driver.run(
          'UPDATE sessions SET turn_count = ?, last_active = COALESCE((SELECT MAX(created_at) FROM messages WHERE session_id = ?), last_active) WHERE id = ?',
          [it.prior_turns, it.session_id, it.session_id],
        );
      }
      driver.run('DELETE FROM import_items WHERE run_id = ?', [runId]);
      driver.run("UPDATE import_runs SET state = 'rolled_back', finished_at = updated_at WHERE id = ?", [runId]);
      return items.length;
    },
    /** Conversations of finished imports still to learn from, oldest import first. */
    pendingItems(limit: number): ImportItem[] {
      return driver.all<ImportItem>(
        `SELECT i.run_id AS runId, i.session_id AS sessionId, i.next_message_id AS nextMessageId
         FROM import_items i JOIN import_runs r ON r.id = i.run_id
         WHERE i.followed_up = 0 AND r.state = 'done' ORDER BY r.started_at, i.session_id LIMIT ?`,
        [limit],
      );
    },
    pendingCount(): { sessions: number; messages: number } {
      return (
        driver.get<{ sessions: number; messages: number }>(
          `SELECT COUNT(*) AS sessions, COALESCE(SUM((SELECT COUNT(*) FROM messages m WHERE m.session_id = i.session_id AND m.id >= i.next_message_id AND m.role = 'user')), 0) AS messages
           FROM import_items i JOIN import_runs r ON r.id = i.run_id WHERE i.followed_up = 0 AND r.state = 'done'`,
        ) ?? { sessions: 0, messages: 0 }
      );
    },
    userMessagesFrom(sessionId: string, fromId: number, limit: number): number[] {
      return driver
        .all<{ id: number }>("SELECT id FROM messages WHERE session_id = ? AND id >= ? AND role = 'user' ORDER BY id LIMIT ?", [sessionId, fromId, limit])
        .map((r) => r.id);
    },
    advance(item: ImportItem, nextMessageId: number, done: boolean): void {
      driver.run('UPDATE import_items SET next_message_id = ?, followed_up = ? WHERE run_id = ? AND session_id = ?', [
        nextMessageId,
        done ? 1 : 0,
        item.runId,
        item.sessionId,
      ]);
    },
    recentRuns(limit: number): { id: string; source: string; state: string; startedAt: number; finishedAt: number | null; conversations: number; messages: number }[] {
      return driver.all(
        `SELECT id, source, state, started_at AS startedAt, finished_at AS finishedAt, conversations, messages
         FROM import_runs ORDER BY started_at DESC, id LIMIT ?`,
        [limit],
      );
    },
  };
}

export type ImportRepo = ReturnType<typeof createImportRepo>;
