import type { MemoryHistoryEntry, MemorySnapshot } from '../../../engine/store/memory-rows';

/**
 * What one memory_history entry changed, for the detail panel's history: the fields whose value differs
 * between `before` and `after`, in a fixed reading order (the text first, bookkeeping last).
 */
export const SNAPSHOT_FIELDS = [
  'content',
  'value',
  'category',
  'key',
  'tags',
  'confidence',
  'importance',
  'source',
  'status',
  'supersededBy',
] as const satisfies readonly (keyof MemorySnapshot)[];

export type SnapshotField = (typeof SNAPSHOT_FIELDS)[number];

export interface FieldChange {
  field: SnapshotField;
  before: unknown;
  after: unknown;
}

export type HistorySummary =
  /** The first version: what the memory said when it was created. */
  | { kind: 'created'; content: string }
  | { kind: 'changed'; changes: FieldChange[] }
  /** A change that left every field as it was (e.g. an undo of an undo that met the same state). */
  | { kind: 'unchanged' };

/** Equal as JSON: values and tags are JSON, and key order in stored JSON is stable. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function summarizeHistory(entry: Pick<MemoryHistoryEntry, 'action' | 'before' | 'after'>): HistorySummary {
  if (entry.before === null && entry.after !== null) return { kind: 'created', content: entry.after.content };
  const before: Partial<MemorySnapshot> = entry.before ?? {};
  const after: Partial<MemorySnapshot> = entry.after ?? {};
  const changes = SNAPSHOT_FIELDS.filter((f) => !same(before[f] ?? null, after[f] ?? null)).map((field) => ({
    field,
    before: before[field] ?? null,
    after: after[field] ?? null,
  }));
  return changes.length ? { kind: 'changed', changes } : { kind: 'unchanged' };
}

/**
 * A history entry the person can go back to: it has a state after it, and that state is not the one the
 * memory is in now (its current version).
 */
export function canRestoreVersion(entry: Pick<MemoryHistoryEntry, 'after' | 'version'>, currentVersion: number): boolean {
  return entry.after !== null && entry.version !== currentVersion;
}
