import type { ContextMessage, LayerResult } from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { RunKind, RunRecord, RunStatus, RunSummary } from '../context/types';
import type { EngineEnv } from '../env';

interface RunRow {
  id: string;
  kind: RunKind;
  skill_id: string;
  session_id: string | null;
  message_id: number | null;
  project_id: string | null;
  document_id: string | null;
  stable_prefix_hash: string;
  status: RunStatus;
  created_at: number;
  finished_at: number | null;
  layers: string;
  memory_ids: string;
  total_tokens: number;
  memory_degraded: number;
  input_chars: number | null;
  messages: string | null;
}

const SUMMARY_COLUMNS =
  'id, kind, skill_id, session_id, message_id, project_id, document_id, stable_prefix_hash, status, created_at, finished_at, total_tokens, memory_degraded';

const toSummary = (r: Omit<RunRow, 'layers' | 'memory_ids' | 'messages' | 'input_chars'>): RunSummary => ({
  id: r.id,
  kind: r.kind,
  skillId: r.skill_id,
  sessionId: r.session_id,
  messageId: r.message_id,
  projectId: r.project_id,
  documentId: r.document_id,
  stablePrefixHash: r.stable_prefix_hash,
  status: r.status,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
  totalTokens: r.total_tokens,
  memoryDegraded: r.memory_degraded === 1,
});

const REQUEST_CHARS = 120;

/**
 * The start of what was asked, read by SQLite from the stored layers (json_each / json_extract) so that listing
 * runs never ships or parses a run's whole layers JSON: the L5 message, or, for a skill run, its selection.
 * A blank text (spaces, tabs, new lines) counts as none. At most REQUEST_SQL_CHARS characters leave SQLite.
 */
const REQUEST_SQL_CHARS = 4 * REQUEST_CHARS;
const WS = `' ' || char(9, 10, 13)`;
const itemText = (itemId: 'message' | 'selection') => `(SELECT substr(trim(json_extract(i.value, '$.text'), ${WS}), 1, ${REQUEST_SQL_CHARS})
       FROM json_each(l.value, '$.items') AS i
       WHERE json_extract(i.value, '$.id') = '${itemId}' AND trim(COALESCE(json_extract(i.value, '$.text'), ''), ${WS}) <> '' LIMIT 1)`;
const REQUEST_SQL = `(SELECT COALESCE(${itemText('message')}, ${itemText('selection')})
     FROM json_each(context_runs.layers) AS l WHERE json_extract(l.value, '$.id') = 'L5' LIMIT 1)`;

/** The request as listed: white space run together, cut to REQUEST_CHARS characters. */
const requestOf = (raw: string | null): string | null =>
  raw === null ? null : Array.from(raw.replace(/\s+/gu, ' ')).slice(0, REQUEST_CHARS).join('');

const toRecord = (r: RunRow): RunRecord & { inputChars: number | null } => ({
  ...toSummary(r),
  layers: JSON.parse(r.layers) as LayerResult[],
  memoryIds: JSON.parse(r.memory_ids) as string[],
  messages: r.messages === null ? null : (JSON.parse(r.messages) as ContextMessage[]),
  messagesPruned: r.messages === null,
  inputChars: r.input_chars,
});

export interface NewRun {
  id: string;
  kind: RunKind;
  skillId: string;
  sessionId: string | null;
  projectId: string | null;
  documentId: string | null;
  stablePrefixHash: string;
  layers: LayerResult[];
  memoryIds: string[];
  totalTokens: number;
  memoryDegraded: boolean;
  inputChars: number;
  messages: ContextMessage[];
}

/**
 * Context runs (004 `skill_runs`, here for chat turns too). Status moves only from `pending` to one final
 * state; the full prompt is kept for the most recent runs only (`pruneMessages`).
 */
export function createRunRepo({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>) {
  const find = (id: string) => {
    const row = driver.get<RunRow>('SELECT * FROM context_runs WHERE id = ?', [id]);
    return row ? toRecord(row) : undefined;
  };
  const mustFind = (id: string, field = 'runId') => {
    const r = find(id);
    if (!r) throw new EngineError('NOT_FOUND', `No context run with that \`${field}\` (it may have been deleted with its conversation).`, { field });
    return r;
  };
  return {
    find,
    mustFind,
    insert(run: NewRun): void {
      driver.run(
        `INSERT INTO context_runs (id, kind, skill_id, session_id, project_id, document_id, stable_prefix_hash, status, created_at,
           layers, memory_ids, total_tokens, memory_degraded, input_chars, messages)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?)`,
        [
          run.id,
          run.kind,
          run.skillId,
          run.sessionId,
          run.projectId,
          run.documentId,
          run.stablePrefixHash,
          clock.now(),
          JSON.stringify(run.layers),
          JSON.stringify(run.memoryIds),
          run.totalTokens,
          run.memoryDegraded,
          run.inputChars,
          JSON.stringify(run.messages),
        ],
      );
    },
    /** A newer build in the same conversation or document supersedes any run still pending there. */
    cancelPending(scope: { sessionId: string | null; documentId: string | null }): number {
      if (!scope.sessionId && !scope.documentId) return 0;
      return driver.run(
        `UPDATE context_runs SET status = 'canceled', finished_at = ?
         WHERE status = 'pending' AND ((? IS NOT NULL AND session_id = ?) OR (? IS NOT NULL AND document_id = ?))`,
        [clock.now(), scope.sessionId, scope.sessionId, scope.documentId, scope.documentId],
      ).changes;
    },
    finish(id: string, status: Exclude<RunStatus, 'pending'>, messageId: number | undefined): void {
      driver.run('UPDATE context_runs SET status = ?, finished_at = ?, message_id = COALESCE(?, message_id) WHERE id = ?', [
        status,
        clock.now(),
        messageId,
        id,
      ]);
    },
    list(opts: { sessionId?: string; documentId?: string; limit: number }): RunSummary[] {
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (opts.sessionId) (where.push('session_id = ?'), params.push(opts.sessionId));
      if (opts.documentId) (where.push('document_id = ?'), params.push(opts.documentId));
      const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
      // Issue 15: a run is listed by what was asked and where — the request (the L5 message the run kept,
      // or its selection) and the conversation's or chapter's title.
      const rows = driver.all<Omit<RunRow, 'layers' | 'memory_ids' | 'messages' | 'input_chars'> & { request: string | null; session_title: string | null; document_title: string | null }>(
        `SELECT ${SUMMARY_COLUMNS}, ${REQUEST_SQL} AS request,
           (SELECT title FROM sessions s WHERE s.id = context_runs.session_id) AS session_title,
           (SELECT title FROM documents d WHERE d.id = context_runs.document_id) AS document_title
         FROM context_runs ${clause} ORDER BY rid DESC LIMIT ?`,
        [...params, opts.limit],
      );
      return rows.map((r) => ({ ...toSummary(r), request: requestOf(r.request), where: r.document_title ?? r.session_title ?? null }));
    },
    forMessage(messageId: number) {
      const row = driver.get<RunRow>('SELECT * FROM context_runs WHERE message_id = ? ORDER BY rid DESC LIMIT 1', [messageId]);
      return row ? toRecord(row) : undefined;
    },
    /** Pending runs older than the cut-off become `timeout`; returns their ids. */
    sweep(olderThan: number): string[] {
      const rows = driver.all<{ id: string }>(
        `UPDATE context_runs SET status = 'timeout', finished_at = ? WHERE status = 'pending' AND created_at < ? RETURNING id`,
        [clock.now(), olderThan],
      );
      return rows.map((r) => r.id).sort();
    },
    /**
     * Drops the prompt text — the full messages and each layer's text — of all but the `keep` most recent runs
     * (bounded storage: a chat turn's prompt is several KB; 004 inspector keeps the layers' tokens, sources, cuts).
     */
    pruneMessages(keep: number): number {
      const rows = driver.all<{ rid: number; layers: string }>(
        `SELECT rid, layers FROM context_runs WHERE messages IS NOT NULL
         AND rid <= (SELECT rid FROM context_runs ORDER BY rid DESC LIMIT 1 OFFSET ?)`,
        [keep],
      );
      for (const r of rows) {
        // The prompt's words go, and with them each kept item's text (issue 15); ids, kinds and tokens stay.
        // Runs imported from older backups may carry layers without items: those stay as they are.
        const layers = (JSON.parse(r.layers) as LayerResult[]).map((l) => ({ ...l, text: '', ...(Array.isArray(l.items) ? { items: l.items.map(({ text: _text, ...rest }) => rest) } : {}) }));
        driver.run('UPDATE context_runs SET messages = NULL, layers = ? WHERE rid = ?', [JSON.stringify(layers), r.rid]);
      }
      return rows.length;
    },
  };
}

export type RunRepo = ReturnType<typeof createRunRepo>;
