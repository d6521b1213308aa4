import type { EngineEnv } from '../env';

export interface SessionSummaryRow {
  id: string;
  title: string;
  snippet: string;
  last_active: number;
}

/** Read-only queries the context engine needs beyond the conversation repositories. */
export function createContextQuery({ driver }: Pick<EngineEnv, 'driver'>) {
  return {
    /**
     * 000 MemoryService.GetRecentSessionSummaries(limit): the most recently active other conversations
     * that have their session summary (title + snippet), newest first.
     */
    recentSessionSummaries(opts: { excludeSessionId: string | null; limit: number }): SessionSummaryRow[] {
      if (opts.limit <= 0) return [];
      return driver.all<SessionSummaryRow>(
        `SELECT id, title, snippet, last_active FROM sessions
         WHERE summarized_at IS NOT NULL AND snippet <> '' AND id <> COALESCE(?, '')
         ORDER BY last_active DESC, id LIMIT ?`,
        [opts.excludeSessionId, opts.limit],
      );
    },
  };
}

export type ContextQuery = ReturnType<typeof createContextQuery>;
