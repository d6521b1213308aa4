import { col, nullable } from './columns';
import { TEXT } from './limits';
import { defineTable } from './table-spec';

/** Migration 0002: projects, conversations, their turns, summaries and symbol index (seeds 000, 002). */

export const projects = defineTable({
  name: 'projects',
  columns: { id: col.id(), name: col.text(TEXT.name), created_at: col.time(), updated_at: col.time() },
  key: ['id'],
  refs: [],
  newer: ['updated_at'],
});

export const sessions = defineTable({
  name: 'sessions',
  columns: {
    id: col.id(),
    project_id: nullable(col.id()),
    title: col.text(TEXT.name),
    snippet: col.text(TEXT.summary),
    summarized_at: nullable(col.time()),
    is_collected: col.bool(),
    created_at: col.time(),
    last_active: col.time(),
    turn_count: col.int(),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
  newer: ['last_active', 'turn_count'],
});

export const messages = defineTable({
  name: 'messages',
  columns: {
    id: col.int(1),
    session_id: col.id(),
    turn_no: col.int(),
    role: col.enum(['user', 'assistant']),
    content: col.text(TEXT.message),
    symbols: col.strings(10_000, TEXT.name),
    is_collected: col.bool(),
    status: col.enum(['complete', 'stopped', 'failed']),
    created_at: col.time(),
    meta: nullable(col.object(64_000)),
  },
  key: ['id'],
  surrogate: 'id',
  natural: ['session_id', 'turn_no', 'role', 'created_at'],
  refs: [{ column: 'session_id', table: 'sessions', target: 'id' }],
});

export const summaries = defineTable({
  name: 'summaries',
  columns: {
    id: col.int(1),
    session_id: col.id(),
    kind: col.enum(['rolling', 'compact']),
    start_turn: col.int(),
    end_turn: col.int(),
    summary: col.text(TEXT.summary),
    key_symbols: col.strings(1_000, TEXT.name),
    key_decisions: col.strings(1_000, TEXT.rule),
    method: col.enum(['model', 'extractive']),
    created_at: col.time(),
  },
  key: ['id'],
  surrogate: 'id',
  natural: ['session_id', 'kind', 'start_turn'],
  naturalUnique: true,
  refs: [{ column: 'session_id', table: 'sessions', target: 'id' }],
});

export const symbolIndex = defineTable({
  name: 'symbol_index',
  columns: {
    symbol: col.text(TEXT.name),
    turn_id: col.int(1),
    relevance: col.real(0, 1),
  },
  key: ['turn_id', 'symbol'], // the table's primary key, in its order: the export pages by it (issue 16)
  nocase: ['symbol'],
  refs: [{ column: 'turn_id', table: 'messages', target: 'id' }],
  withoutRowid: true,
});
