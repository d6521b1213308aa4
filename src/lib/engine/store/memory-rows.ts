import type { MemoryRecord } from '../../domain/memory';

/** Row shapes of `memories` / `memory_history` (migrations 0003, 0004) and their mapping to records. */
export interface MemoryRow {
  rid: number;
  id: string;
  scope: MemoryRecord['scope'];
  project_id: string | null;
  session_id: string | null;
  message_id: number | null;
  category: MemoryRecord['category'];
  key: string;
  value: string;
  content: string;
  tags: string;
  confidence: number;
  source: MemoryRecord['source'];
  importance: number;
  status: MemoryRecord['status'];
  superseded_by: string | null;
  language: string | null;
  created_at: number;
  updated_at: number;
  last_accessed: number | null;
  access_count: number;
  version: number;
}

export type HistoryAction = 'create' | 'update' | 'supersede' | 'restore';
export type HistoryActor = 'user' | 'extractor' | 'system' | 'import';

/** The part of a memory a change can touch; history rows keep it before and after each change. */
export type MemorySnapshot = Pick<
  MemoryRecord,
  'category' | 'key' | 'value' | 'content' | 'tags' | 'confidence' | 'source' | 'importance' | 'status' | 'supersededBy'
>;

export interface MemoryHistoryEntry {
  id: number;
  memoryId: string;
  /** The memory's version after this change. */
  version: number;
  action: HistoryAction;
  actor: HistoryActor;
  before: MemorySnapshot | null;
  after: MemorySnapshot | null;
  /** A fixed code (e.g. `extract:supersede`, `undo`, `retracted`), never user text. */
  reason: string | null;
  createdAt: number;
}

export interface HistoryRow {
  id: number;
  memory_id: string;
  version: number;
  action: HistoryAction;
  actor: HistoryActor;
  before: string | null;
  after: string | null;
  reason: string | null;
  created_at: number;
}

export const toMemory = (r: MemoryRow): MemoryRecord => ({
  id: r.id,
  scope: r.scope,
  projectId: r.project_id,
  sessionId: r.session_id,
  messageId: r.message_id,
  category: r.category,
  key: r.key,
  value: JSON.parse(r.value) as unknown,
  content: r.content,
  tags: JSON.parse(r.tags) as string[],
  confidence: r.confidence,
  source: r.source,
  importance: r.importance,
  status: r.status,
  supersededBy: r.superseded_by,
  language: r.language,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastAccessed: r.last_accessed,
  accessCount: r.access_count,
  version: r.version,
});

export const toHistory = (r: HistoryRow): MemoryHistoryEntry => ({
  id: r.id,
  memoryId: r.memory_id,
  version: r.version,
  action: r.action,
  actor: r.actor,
  before: r.before === null ? null : (JSON.parse(r.before) as MemorySnapshot),
  after: r.after === null ? null : (JSON.parse(r.after) as MemorySnapshot),
  reason: r.reason,
  createdAt: r.created_at,
});

export function snapshotOf(m: MemoryRecord): MemorySnapshot {
  return {
    category: m.category,
    key: m.key,
    value: m.value,
    content: m.content,
    tags: m.tags,
    confidence: m.confidence,
    source: m.source,
    importance: m.importance,
    status: m.status,
    supersededBy: m.supersededBy,
  };
}

/** The strings inside a JSON value (what the full-text index sees of it). */
export function valueStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(valueStrings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(valueStrings);
  return [];
}
