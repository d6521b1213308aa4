import { EngineError } from '../../domain/errors';
import type { Message, MessageMeta, MessageStatus, Role } from '../../domain/conversation/types';
import { extractSymbols, type ExtractedSymbol } from '../../domain/text/symbols';
import type { EngineEnv } from '../env';
import { toMessage, type MessageRow } from './conversation-rows';
import { MESSAGE_FTS_INSERT, messageFtsColumns } from './fts-columns';

/**
 * Messages with their full-text and symbol indexes. The FTS row and the symbol rows are written in
 * the same transaction as the message (the engine wraps every write), so they never drift apart.
 */
export function createMessageRepo({ driver }: Pick<EngineEnv, 'driver'>) {
  const find = (id: number): Message | undefined => {
    const row = driver.get<MessageRow>('SELECT * FROM messages WHERE id = ?', [id]);
    return row ? toMessage(row) : undefined;
  };
  const mustFind = (id: number): Message => {
    const m = find(id);
    if (!m) throw new EngineError('NOT_FOUND', 'No message with that `id` (it may have been deleted).', { field: 'id' });
    return m;
  };

  function indexMessage(id: number, content: string, symbols: readonly ExtractedSymbol[]): void {
    // The turn's words and its symbols in one full-text row; 002 REQ-LTM-003's entries next to each other.
    driver.run(MESSAGE_FTS_INSERT, [id, ...messageFtsColumns({ content, symbols: symbols.map((s) => s.symbol) })]);
    for (const s of symbols) {
      driver.run(
        `INSERT INTO symbol_index (turn_id, symbol, relevance) VALUES (?, ?, ?)
         ON CONFLICT DO UPDATE SET relevance = MAX(relevance, excluded.relevance)`,
        [id, s.symbol, s.relevance],
      );
    }
  }

  return {
    find,
    mustFind,
    insert(input: {
      sessionId: string;
      turnNo: number;
      role: Role;
      content: string;
      status: MessageStatus;
      meta: MessageMeta | undefined;
      createdAt: number;
    }): { message: Message; symbols: ExtractedSymbol[] } {
      const symbols = extractSymbols(input.content);
      const row = driver.get<{ id: number }>(
        `INSERT INTO messages (session_id, turn_no, role, content, symbols, status, created_at, meta)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [
          input.sessionId,
          input.turnNo,
          input.role,
          input.content,
          JSON.stringify(symbols.map((s) => s.symbol)),
          input.status,
          input.createdAt,
          input.meta && Object.keys(input.meta).length ? JSON.stringify(input.meta) : null,
        ],
      );
      if (!row) throw new Error('message insert returned no id');
      indexMessage(row.id, input.content, symbols);
      return { message: mustFind(row.id), symbols };
    },
    list(sessionId: string, opts: { limit: number; beforeId?: number }): Message[] {
      const rows = opts.beforeId
        ? driver.all<MessageRow>('SELECT * FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT ?', [sessionId, opts.beforeId, opts.limit])
        : driver.all<MessageRow>('SELECT * FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?', [sessionId, opts.limit]);
      return rows.reverse().map(toMessage);
    },
    turns(sessionId: string, fromTurn: number, toTurn: number): Message[] {
      return driver
        .all<MessageRow>('SELECT * FROM messages WHERE session_id = ? AND turn_no BETWEEN ? AND ? ORDER BY turn_no, id', [sessionId, fromTurn, toTurn])
        .map(toMessage);
    },
    /** The last `turns` turns of a session, oldest first. */
    recentTurns(sessionId: string, turns: number): Message[] {
      return driver
        .all<MessageRow>(
          `SELECT * FROM messages WHERE session_id = ? AND turn_no > (SELECT MAX(0, turn_count - ?) FROM sessions WHERE id = ?) ORDER BY turn_no, id`,
          [sessionId, turns, sessionId],
        )
        .map(toMessage);
    },
    update(id: number, patch: { isCollected?: boolean; content?: string; status?: MessageStatus; meta?: MessageMeta }): Message {
      const before = mustFind(id);
      if (patch.isCollected !== undefined) driver.run('UPDATE messages SET is_collected = ? WHERE id = ?', [patch.isCollected, id]);
      if (patch.status !== undefined) driver.run('UPDATE messages SET status = ? WHERE id = ?', [patch.status, id]);
      if (patch.meta !== undefined) driver.run('UPDATE messages SET meta = ? WHERE id = ?', [JSON.stringify({ ...before.meta, ...patch.meta }), id]);
      if (patch.content !== undefined && patch.content !== before.content) {
        const symbols = extractSymbols(patch.content);
        driver.run('UPDATE messages SET content = ?, symbols = ? WHERE id = ?', [patch.content, JSON.stringify(symbols.map((s) => s.symbol)), id]);
        driver.run('DELETE FROM messages_fts WHERE rowid = ?', [id]);
        driver.run('DELETE FROM symbol_index WHERE turn_id = ?', [id]);
        indexMessage(id, patch.content, symbols);
      }
      return mustFind(id);
    },
    delete(id: number): void {
      mustFind(id);
      driver.run('DELETE FROM messages WHERE id = ?', [id]);
    },
    /** The first user message and first reply of a session (seed 000 session summary). */
    firstExchange(sessionId: string): { user?: Message; assistant?: Message } {
      const rows = driver.all<MessageRow>('SELECT * FROM messages WHERE session_id = ? AND turn_no = 1 ORDER BY id', [sessionId]).map(toMessage);
      return { user: rows.find((m) => m.role === 'user'), assistant: rows.find((m) => m.role === 'assistant') };
    },
  };
}

export type MessageRepo = ReturnType<typeof createMessageRepo>;
