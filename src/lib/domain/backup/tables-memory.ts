import { col, nullable } from './columns';
import { TEXT } from './limits';
import { defineTable } from './table-spec';

/** Migrations 0001, 0003, 0004: long-term memories with their history, the profile, the settings. */

const actor = col.enum(['user', 'extractor', 'system', 'import']);

export const memories = defineTable({
  name: 'memories',
  columns: {
    id: col.id(),
    scope: col.enum(['global', 'project']),
    project_id: nullable(col.id()),
    // Where it was learned: not foreign keys (deleting a conversation keeps what was learned from it).
    session_id: nullable(col.id()),
    message_id: nullable(col.int(1)),
    category: col.enum(['preference', 'fact', 'pattern']),
    key: col.text(TEXT.name),
    value: col.json(64_000),
    content: col.text(TEXT.memory),
    tags: col.strings(200, TEXT.short),
    confidence: col.real(0, 1),
    source: col.enum(['user_stated', 'inferred', 'system']),
    importance: col.real(0, 1),
    status: col.enum(['active', 'superseded']),
    superseded_by: nullable(col.id()),
    language: nullable(col.text(TEXT.short)),
    created_at: col.time(),
    updated_at: col.time(),
    last_accessed: nullable(col.time()),
    access_count: col.int(),
    version: col.int(1),
  },
  key: ['id'],
  refs: [{ column: 'project_id', table: 'projects', target: 'id' }],
  softRefs: [
    { column: 'message_id', table: 'messages', target: 'id' },
    { column: 'superseded_by', table: 'memories', target: 'id' },
  ],
  newer: ['version', 'updated_at'],
  // `rid` is the FTS index's row id: internal, renumbered on import.
  hidden: ['rid'],
});

const snapshot = nullable(col.object(128_000));

export const memoryHistory = defineTable({
  name: 'memory_history',
  columns: {
    id: col.int(1),
    memory_id: col.id(),
    version: col.int(1),
    action: col.enum(['create', 'update', 'supersede', 'restore']),
    actor,
    before: snapshot,
    after: snapshot,
    reason: nullable(col.text(TEXT.short)),
    created_at: col.time(),
  },
  key: ['id'],
  surrogate: 'id',
  natural: ['memory_id', 'version', 'action', 'created_at'],
  refs: [{ column: 'memory_id', table: 'memories', target: 'id' }],
});

export const userProfile = defineTable({
  name: 'user_profile',
  columns: {
    version: col.int(1),
    content: col.text(TEXT.profile),
    actor,
    reason: nullable(col.text(TEXT.short)),
    restores: nullable(col.int()),
    created_at: col.time(),
  },
  key: ['version'],
  refs: [],
});

export const settings = defineTable({
  name: 'settings',
  columns: { key: col.text(TEXT.short), value: col.json(10_000), updated_at: col.time() },
  key: ['key'],
  refs: [],
  newer: ['updated_at'],
  withoutRowid: true,
});
