import type { EngineEnv } from '../env';

/**
 * SQL behind the Markdown exports (issue 14 item 4): a conversation's messages, and what Engram keeps
 * about a project or about the person — read in one read transaction by the caller.
 */
export function createReadableExportQuery({ driver }: Pick<EngineEnv, 'driver'>) {
  const memoryCols = 'content, category, confidence, tags, updated_at AS updatedAt';
  type MemoryRow = { content: string; category: string; confidence: number; tags: string; updatedAt: number };
  const memories = (rows: MemoryRow[]) => rows.map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[] }));
  return {
    session(id: string) {
      return driver.get<{ id: string; title: string; snippet: string; createdAt: number; lastActive: number; turnCount: number; projectId: string | null }>(
        'SELECT id, title, snippet, created_at AS createdAt, last_active AS lastActive, turn_count AS turnCount, project_id AS projectId FROM sessions WHERE id = ?',
        [id],
      );
    },
    messages(sessionId: string) {
      return driver.all<{ role: 'user' | 'assistant'; content: string; createdAt: number }>(
        'SELECT role, content, created_at AS createdAt FROM messages WHERE session_id = ? ORDER BY turn_no, id',
        [sessionId],
      );
    },
    project(id: string) {
      return driver.get<{ id: string; name: string }>('SELECT id, name FROM projects WHERE id = ?', [id]);
    },
    projectMemories(projectId: string) {
      return memories(driver.all(`SELECT ${memoryCols} FROM memories WHERE status = 'active' AND project_id = ? ORDER BY category, updated_at DESC, id`, [projectId]));
    },
    globalMemories() {
      return memories(driver.all(`SELECT ${memoryCols} FROM memories WHERE status = 'active' AND scope = 'global' ORDER BY category, updated_at DESC, id`));
    },
    projectRules(projectId: string) {
      return driver
        .all<{ rule: string; category: string; confidence: number; userConfirmed: number }>(
          "SELECT rule, category, confidence, user_confirmed AS userConfirmed FROM semantic_rules WHERE status = 'active' AND project_id = ? ORDER BY category, confidence DESC, id",
          [projectId],
        )
        .map((r) => ({ ...r, userConfirmed: r.userConfirmed === 1 }));
    },
    projectSessions(projectId: string) {
      return driver.all<{ id: string; title: string; snippet: string; createdAt: number; lastActive: number; turnCount: number }>(
        'SELECT id, title, snippet, created_at AS createdAt, last_active AS lastActive, turn_count AS turnCount FROM sessions WHERE project_id = ? ORDER BY created_at, id',
        [projectId],
      );
    },
    rollingSummaries(sessionId: string) {
      return driver.all<{ startTurn: number; endTurn: number; summary: string }>(
        "SELECT start_turn AS startTurn, end_turn AS endTurn, summary FROM summaries WHERE session_id = ? AND kind = 'rolling' ORDER BY start_turn",
        [sessionId],
      );
    },
    profile(): string {
      return driver.get<{ content: string }>('SELECT content FROM user_profile ORDER BY version DESC LIMIT 1')?.content ?? '';
    },
  };
}

export type ReadableExportQuery = ReturnType<typeof createReadableExportQuery>;
