/**
 * The benchmark's bulk prefill (issue 16, the million-turn row): the rows `session.create` + `message.append`
 * write, written with prepared statements straight into better-sqlite3 inside the caller's big transaction,
 * with none of the per-call work the engine path pays (request validation, the caller, a savepoint per call,
 * re-reading the session and the message it just wrote, the working memory's in-memory state). What a turn's
 * rows are comes from the same functions the engine uses: extractSymbols (messages.symbols, symbol_index),
 * messageFtsColumns / MESSAGE_FTS_INSERT (the full-text row), heuristicSessionSummary (title, snippet) and
 * the conversation service's turn numbering. bulk-fill.test.ts checks the database equals the engine path's.
 *
 * A session's row is inserted when it opens and its running fields (turn_count, last_active, title, snippet,
 * summarized_at) are written back by `flush()`: when the next session opens and at the end of a fill, so the
 * engine (summary.roll, the timed appends, the browser) always reads it as the engine path leaves it.
 */
import type Database from 'better-sqlite3';
import { heuristicSessionSummary } from '../../src/lib/domain/conversation/session-title';
import { extractSymbols } from '../../src/lib/domain/text/symbols';
import { MESSAGE_FTS_INSERT, messageFtsColumns } from '../../src/lib/engine/store/fts-columns';

interface OpenState {
  id: string;
  turnCount: number;
  lastActive: number;
  title: string;
  snippet: string;
  summarizedAt: number | null;
  /** Turn 1's user message, for the first reply's title + snippet (messages.firstExchange). */
  firstUser: string | null;
}

export interface BulkWriter {
  /** Opens a new conversation (session.create with this id); the open one is flushed first. */
  openSession(id: string): void;
  /** message.append (status 'complete', no meta) to the open conversation. */
  append(role: 'user' | 'assistant', content: string): void;
  /** Writes the open conversation's running fields to its row. */
  flush(): void;
  /** Continues a conversation an earlier fill (or the engine) left open: reads its row back. */
  resume(id: string): void;
}

export function createBulkWriter(db: Database.Database, now: () => number = Date.now): BulkWriter {
  const insertSession = db.prepare('INSERT INTO sessions (id, project_id, title, created_at, last_active) VALUES (?, NULL, \'\', ?, ?)');
  const updateSession = db.prepare('UPDATE sessions SET turn_count = ?, last_active = ?, title = ?, snippet = ?, summarized_at = ? WHERE id = ?');
  const insertMessage = db.prepare(
    "INSERT INTO messages (session_id, turn_no, role, content, symbols, status, created_at, meta) VALUES (?, ?, ?, ?, ?, 'complete', ?, NULL)",
  );
  const insertFts = db.prepare(MESSAGE_FTS_INSERT);
  const insertSymbol = db.prepare(
    'INSERT INTO symbol_index (turn_id, symbol, relevance) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET relevance = MAX(relevance, excluded.relevance)',
  );
  const readSession = db.prepare<[string], { turn_count: number; last_active: number; title: string; snippet: string; summarized_at: number | null }>(
    'SELECT turn_count, last_active, title, snippet, summarized_at FROM sessions WHERE id = ?',
  );
  const readFirstUser = db.prepare<[string], { content: string }>("SELECT content FROM messages WHERE session_id = ? AND turn_no = 1 AND role = 'user' ORDER BY id LIMIT 1");
  let open: OpenState | null = null;

  const flush = () => {
    if (open) updateSession.run(open.turnCount, open.lastActive, open.title, open.snippet, open.summarizedAt, open.id);
  };

  return {
    openSession(id) {
      flush();
      const t = now();
      insertSession.run(id, t, t);
      open = { id, turnCount: 0, lastActive: t, title: '', snippet: '', summarizedAt: null, firstUser: null };
    },
    resume(id) {
      const row = readSession.get(id);
      if (!row) throw new Error(`bulk fill: no conversation ${id} to continue`);
      open = {
        id,
        turnCount: row.turn_count,
        lastActive: row.last_active,
        title: row.title,
        snippet: row.snippet,
        summarizedAt: row.summarized_at,
        firstUser: readFirstUser.get(id)?.content ?? null,
      };
    },
    append(role, content) {
      const s = open;
      if (!s) throw new Error('bulk fill: no open conversation');
      const t = now();
      // conversation-service.ts append: a user message (or the very first message) opens a turn.
      let turnNo: number;
      if (role === 'user' || s.turnCount === 0) {
        turnNo = ++s.turnCount;
        s.lastActive = t;
      } else {
        turnNo = s.turnCount;
        s.lastActive = Math.max(s.lastActive, t);
      }
      if (role === 'user' && turnNo === 1) s.firstUser = content;
      const symbols = extractSymbols(content);
      const names = symbols.map((x) => x.symbol);
      const id = Number(insertMessage.run(s.id, turnNo, role, content, JSON.stringify(names), t).lastInsertRowid);
      insertFts.run(id, ...messageFtsColumns({ content, symbols: names }));
      for (const x of symbols) insertSymbol.run(id, x.symbol, x.relevance);
      if (role === 'user' && turnNo === 1 && !s.title) s.title = heuristicSessionSummary(content, '').title;
      if (role === 'assistant' && s.summarizedAt === null) {
        const firstUser = s.firstUser ?? '';
        const { title, snippet } = heuristicSessionSummary(firstUser, content);
        const userNamed = s.title !== '' && s.title !== heuristicSessionSummary(firstUser, '').title;
        s.title = userNamed ? s.title : title;
        s.snippet = snippet;
        s.summarizedAt = t;
      }
    },
    flush,
  };
}
