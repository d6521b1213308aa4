import { canonicalJson } from './canonical';
import type { Row, TableSpec } from './table-spec';
import type { TableName } from './tables';

/**
 * What an import does with each incoming row, decided the same way for the preview and the write:
 *
 *   no local row with its identity ........................ add
 *   same identity, same content ............................ skip
 *   same identity, different content:  replace ............. update (the file wins)
 *                                      merge, file newer ... update
 *                                      merge, otherwise .... conflict (the local row stays, and so do
 *                                                            the rows that hang off it)
 *
 * Merging the same file twice therefore adds nothing the second time: every row is a skip.
 */
export type ImportMode = 'merge' | 'replace';
export type RowOutcome = 'add' | 'update' | 'skip' | 'conflict';

export interface TableCounts {
  incoming: number;
  add: number;
  update: number;
  skip: number;
  conflict: number;
  /** Local rows a replace deletes first (in the file's scope). */
  removed: number;
}

export interface ConflictItem {
  table: TableName;
  /** The row's id (ids and setting names only — never text a person wrote); null when its key is text. */
  key: string | null;
}

export const emptyCounts = (): TableCounts => ({ incoming: 0, add: 0, update: 0, skip: 0, conflict: 0, removed: 0 });

/** True when every exported column (but `ignore`) holds the same value in both rows. */
export function sameRow(t: TableSpec, a: Row, b: Row, ignore: readonly string[] = []): boolean {
  for (const name of Object.keys(t.columns)) {
    if (ignore.includes(name)) continue;
    const x = a[name];
    const y = b[name];
    if (x === y) continue;
    if (typeof x === 'object' && typeof y === 'object' && x !== null && y !== null && canonicalJson(x) === canonicalJson(y)) continue;
    return false;
  }
  return true;
}

/** The incoming row is newer when its `newer` columns, compared in order, are greater. */
export function isNewer(t: TableSpec, incoming: Row, local: Row): boolean {
  for (const name of t.newer ?? []) {
    const x = incoming[name] as number;
    const y = local[name] as number;
    if (x > y) return true;
    if (x < y) return false;
  }
  return false;
}

/** The outcome for a row whose identity exists locally. */
export function decide(opts: { table: TableSpec; mode: ImportMode; incoming: Row; local: Row }): Exclude<RowOutcome, 'add'> {
  const { table, incoming, local } = opts;
  const ignore = table.surrogate ? [table.surrogate] : [];
  if (sameRow(table, incoming, local, ignore)) return 'skip';
  if (opts.mode === 'replace' || isNewer(table, incoming, local)) return 'update';
  return 'conflict';
}

const SHOWABLE_KEYS = new Set(['id', 'run_id', 'key', 'version']);

/** A conflict as the preview lists it: the ids of the row, never its text. */
export function conflictItem(t: TableSpec & { name: TableName }, row: Row): ConflictItem {
  const showable = t.key.every((k) => SHOWABLE_KEYS.has(k) || t.columns[k]?.kind === 'int');
  return { table: t.name, key: showable ? t.key.map((k) => String(row[k])).join(' · ') : null };
}
