import { EngineError } from '../../domain/errors';
import type { Summary } from '../../domain/conversation/types';
import type { EngineEnv } from '../env';
import { toSummary, type SummaryRow } from './conversation-rows';
import { summaryFtsColumns } from './fts-columns';

export interface SummaryInput {
  sessionId: string;
  kind: Summary['kind'];
  startTurn: number;
  endTurn: number;
  summary: string;
  keySymbols: readonly string[];
  keyDecisions: readonly string[];
  method: Summary['method'];
}

/** Rolling and compact summaries; each links back to its turns by (session, start_turn..end_turn). */
export function createSummaryRepo({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  const find = (id: number): Summary | undefined => {
    const row = driver.get<SummaryRow>('SELECT * FROM summaries WHERE id = ?', [id]);
    return row ? toSummary(row) : undefined;
  };
  const mustFind = (id: number): Summary => {
    const s = find(id);
    if (!s) throw new EngineError('NOT_FOUND', 'No summary with that `id`.', { field: 'id' });
    return s;
  };
  const index = (id: number, s: Pick<SummaryInput, 'summary' | 'keySymbols' | 'keyDecisions'>) => {
    driver.run('DELETE FROM summaries_fts WHERE rowid = ?', [id]);
    driver.run('INSERT INTO summaries_fts (rowid, body) VALUES (?, ?)', [id, ...summaryFtsColumns(s)]);
  };
  return {
    find,
    mustFind,
    /** Inserts, or replaces the summary of the same block (a model summary replacing an extractive one). */
    upsert(input: SummaryInput): Summary {
      const row = driver.get<{ id: number }>(
        `INSERT INTO summaries (session_id, kind, start_turn, end_turn, summary, key_symbols, key_decisions, method, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (session_id, kind, start_turn) DO UPDATE SET end_turn = excluded.end_turn, summary = excluded.summary,
           key_symbols = excluded.key_symbols, key_decisions = excluded.key_decisions, method = excluded.method
         RETURNING id`,
        [
          input.sessionId,
          input.kind,
          input.startTurn,
          input.endTurn,
          input.summary,
          JSON.stringify(input.keySymbols),
          JSON.stringify(input.keyDecisions),
          input.method,
          clock.now(),
        ],
      );
      if (!row) throw new Error('summary upsert returned no id');
      index(row.id, input);
      return mustFind(row.id);
    },
    replaceText(id: number, patch: { summary: string; keySymbols: readonly string[]; keyDecisions: readonly string[] }): Summary {
      mustFind(id);
      driver.run('UPDATE summaries SET summary = ?, key_symbols = ?, key_decisions = ?, method = ? WHERE id = ?', [
        patch.summary,
        JSON.stringify(patch.keySymbols),
        JSON.stringify(patch.keyDecisions),
        'model',
        id,
      ]);
      index(id, patch);
      return mustFind(id);
    },
    list(sessionId: string, kind?: Summary['kind']): Summary[] {
      const rows = kind
        ? driver.all<SummaryRow>('SELECT * FROM summaries WHERE session_id = ? AND kind = ? ORDER BY start_turn', [sessionId, kind])
        : driver.all<SummaryRow>('SELECT * FROM summaries WHERE session_id = ? ORDER BY kind, start_turn', [sessionId]);
      return rows.map(toSummary);
    },
    /** The last turn covered by a rolling summary (0 when none). */
    summarizedUpTo(sessionId: string): number {
      return driver.get<{ n: number | null }>("SELECT MAX(end_turn) AS n FROM summaries WHERE session_id = ? AND kind = 'rolling'", [sessionId])?.n ?? 0;
    },
    /** Extractive summaries a model could improve, oldest first. */
    extractive(limit: number): Summary[] {
      return driver
        .all<SummaryRow>("SELECT * FROM summaries WHERE method = 'extractive' ORDER BY created_at, id LIMIT ?", [limit])
        .map(toSummary);
    },
  };
}

export type SummaryRepo = ReturnType<typeof createSummaryRepo>;
