import { EngineError } from '../../domain/errors';
import type { MemoryRecord } from '../../domain/memory';
import { MEMORY_FTS_INSERT, memoryFtsColumns } from './fts-columns';
import type { EngineEnv } from '../env';
import {
  snapshotOf,
  toHistory,
  toMemory,
  type HistoryAction,
  type HistoryActor,
  type HistoryRow,
  type MemoryHistoryEntry,
  type MemoryRow,
  type MemorySnapshot,
} from './memory-rows';

export type NewMemory = Pick<
  MemoryRecord,
  'scope' | 'projectId' | 'sessionId' | 'messageId' | 'category' | 'key' | 'value' | 'content' | 'tags' | 'confidence' | 'source' | 'language'
> &
  Partial<Pick<MemoryRecord, 'importance' | 'status' | 'supersededBy'>>;

export interface ChangeMeta {
  actor: HistoryActor;
  /** A fixed code, never user text. */
  reason?: string;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

function sameSnapshot(a: MemorySnapshot, b: MemorySnapshot): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Memories with their full-text rows and their history. Invariants, kept inside the engine's write
 * transaction: every row has exactly one `memories_fts` row (contentless: deleted and re-inserted on
 * change, removed by trigger on delete), and every create or change adds a `memory_history` row with
 * the snapshot before and after, so each change can be shown and undone.
 */
export function createMemoryRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string): MemoryRecord | undefined => {
    const row = driver.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id]);
    return row ? toMemory(row) : undefined;
  };
  const mustFind = (id: string): MemoryRecord => {
    const m = find(id);
    if (!m) throw new EngineError('NOT_FOUND', 'No memory with that `id` (it may have been deleted).', { field: 'id' });
    return m;
  };

  function index(rid: number, m: MemoryRecord, replace: boolean): void {
    if (replace) driver.run('DELETE FROM memories_fts WHERE rowid = ?', [rid]);
    driver.run(MEMORY_FTS_INSERT, [rid, ...memoryFtsColumns(m)]);
  }

  function record(opts: {
    memory: MemoryRecord;
    action: HistoryAction;
    before: MemorySnapshot | null;
    meta: ChangeMeta;
  }): void {
    driver.run(
      'INSERT INTO memory_history (memory_id, version, action, actor, before, after, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        opts.memory.id,
        opts.memory.version,
        opts.action,
        opts.meta.actor,
        opts.before === null ? null : JSON.stringify(opts.before),
        JSON.stringify(snapshotOf(opts.memory)),
        opts.meta.reason ?? null,
        opts.memory.updatedAt,
      ],
    );
  }

  return {
    find,
    mustFind,
    /** The records for `ids` that exist, in the order asked for. */
    findMany(list: readonly string[]): MemoryRecord[] {
      if (list.length === 0) return [];
      const rows = driver.all<MemoryRow>(`SELECT * FROM memories WHERE id IN (${placeholders(list.length)})`, list);
      const byId = new Map(rows.map((r) => [r.id, toMemory(r)]));
      return [...new Set(list)].flatMap((id) => byId.get(id) ?? []);
    },
    insert(input: NewMemory, meta: ChangeMeta & { id?: string; createdAt?: number }): MemoryRecord {
      const now = meta.createdAt ?? clock.now();
      const id = meta.id ?? ids();
      const row = driver.get<{ rid: number }>(
        `INSERT INTO memories (id, scope, project_id, session_id, message_id, category, key, value, content, tags, confidence,
           source, importance, status, superseded_by, language, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING rid`,
        [
          id,
          input.scope,
          input.projectId,
          input.sessionId,
          input.messageId,
          input.category,
          input.key,
          JSON.stringify(input.value ?? null),
          input.content,
          JSON.stringify(input.tags),
          input.confidence,
          input.source,
          input.importance ?? 0.5,
          input.status ?? 'active',
          input.supersededBy ?? null,
          input.language,
          now,
          now,
        ],
      );
      if (!row) throw new Error('memory insert returned no rid');
      const memory = mustFind(id);
      index(row.rid, memory, false);
      record({ memory, action: 'create', before: null, meta });
      return memory;
    },
    /**
     * Applies a patch as one versioned change. A patch that changes nothing writes nothing (saying the
     * same thing twice leaves no trace) and returns the memory as it is.
     */
    change(id: string, patch: Partial<MemorySnapshot>, meta: ChangeMeta & { action: Exclude<HistoryAction, 'create'> }): MemoryRecord {
      const current = mustFind(id);
      const before = snapshotOf(current);
      const after: MemorySnapshot = { ...before, ...patch };
      if (sameSnapshot(before, after)) return current;
      const now = clock.now();
      const row = driver.get<{ rid: number }>(
        `UPDATE memories SET category = ?, key = ?, value = ?, content = ?, tags = ?, confidence = ?, source = ?, importance = ?,
           status = ?, superseded_by = ?, updated_at = ?, version = version + 1 WHERE id = ? RETURNING rid`,
        [
          after.category,
          after.key,
          JSON.stringify(after.value ?? null),
          after.content,
          JSON.stringify(after.tags),
          after.confidence,
          after.source,
          after.importance,
          after.status,
          after.supersededBy,
          now,
          id,
        ],
      );
      if (!row) throw new Error('memory update returned no rid');
      const memory = mustFind(id);
      const reindex = ['content', 'tags', 'value', 'key'] as const;
      if (reindex.some((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))) index(row.rid, memory, true);
      record({ memory, action: meta.action, before, meta });
      return memory;
    },
    /** Permanent (seed 001 "User delete specific memory"): the row, its index entry and its history go. */
    remove(id: string): void {
      mustFind(id);
      driver.run('DELETE FROM memories WHERE id = ?', [id]);
    },
    /** Seed 001 "User clear all memories". */
    clear(): { memoriesDeleted: number; historyDeleted: number } {
      const historyDeleted = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_history')?.n ?? 0;
      const { changes } = driver.run('DELETE FROM memories');
      return { memoriesDeleted: changes, historyDeleted };
    },
    history(id: string): MemoryHistoryEntry[] {
      return driver
        .all<HistoryRow>('SELECT * FROM memory_history WHERE memory_id = ? ORDER BY version DESC, id DESC', [id])
        .map(toHistory);
    },
    lastChange(id: string): MemoryHistoryEntry | undefined {
      const row = driver.get<HistoryRow>('SELECT * FROM memory_history WHERE memory_id = ? ORDER BY version DESC, id DESC LIMIT 1', [id]);
      return row ? toHistory(row) : undefined;
    },
    atVersion(id: string, version: number): MemoryHistoryEntry | undefined {
      const row = driver.get<HistoryRow>('SELECT * FROM memory_history WHERE memory_id = ? AND version = ? ORDER BY id DESC LIMIT 1', [id, version]);
      return row ? toHistory(row) : undefined;
    },
    /** Active memories with this key in the same scope (reconcile's first neighbours). */
    activeByKey(key: string, projectId: string | null): MemoryRecord[] {
      return driver
        .all<MemoryRow>(
          `SELECT * FROM memories WHERE key = ? AND status = 'active' AND ${projectId === null ? 'project_id IS NULL' : 'project_id = ?'}
           ORDER BY updated_at DESC`,
          projectId === null ? [key] : [key, projectId],
        )
        .map(toMemory);
    },
    /** Memories that `id` superseded (they point at it). */
    supersededBy(id: string): MemoryRecord[] {
      return driver.all<MemoryRow>('SELECT * FROM memories WHERE superseded_by = ? ORDER BY updated_at DESC', [id]).map(toMemory);
    },
    /** Seed 001 "Memory access tracking": only for memories actually placed in the context. */
    markAccessed(list: readonly string[]): number {
      if (list.length === 0) return 0;
      const unique = [...new Set(list)];
      return driver.run(
        `UPDATE memories SET last_accessed = ?, access_count = access_count + 1 WHERE id IN (${placeholders(unique.length)})`,
        [clock.now(), ...unique],
      ).changes;
    },
    countActive(): number {
      return driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM memories WHERE status = 'active'")?.n ?? 0;
    },
    /**
     * 001 "Optional memory eviction": active memories in eviction order: lowest confidence first, then
     * the oldest access (created_at when never accessed). Memories a person created or edited by hand
     * (a history row with actor 'user') are never candidates.
     */
    evictionCandidates(limit: number): string[] {
      return driver
        .all<{ id: string }>(
          `SELECT m.id FROM memories m WHERE m.status = 'active'
             AND NOT EXISTS (SELECT 1 FROM memory_history h WHERE h.memory_id = m.id AND h.actor = 'user')
           ORDER BY m.confidence ASC, COALESCE(m.last_accessed, m.created_at) ASC, m.created_at ASC, m.rid ASC LIMIT ?`,
          [limit],
        )
        .map((r) => r.id);
    },
    removeMany(list: readonly string[]): number {
      let removed = 0;
      // Chunks stay far below SQLite's bound-parameter limit.
      for (let i = 0; i < list.length; i += 500) {
        const chunk = list.slice(i, i + 500);
        removed += driver.run(`DELETE FROM memories WHERE id IN (${placeholders(chunk.length)})`, chunk).changes;
      }
      return removed;
    },
  };
}

export type MemoryRepo = ReturnType<typeof createMemoryRepo>;
