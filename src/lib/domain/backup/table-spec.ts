import { z } from 'zod';
import type { ColumnSpec } from './columns';
import { MAX_ROWS_PER_TABLE } from './limits';

/** A foreign key as the schema declares it: the value must name a row of `table` (by `target`). */
export interface TableRef<C extends string = string> {
  readonly column: C;
  readonly table: string;
  readonly target: string;
}

/**
 * One exportable table: its columns (exactly the SQL columns, minus `hidden` ones such as an internal
 * `rid`), its identity and its relations. Everything the file format, the validator, the canonical
 * dump and the import's merge need comes from here; SQL-specific behaviour lives in the engine's
 * registry (engine/backup/registry.ts), which must cover every table listed here.
 */
export interface TableSpec<C extends Record<string, ColumnSpec> = Record<string, ColumnSpec>> {
  readonly name: string;
  readonly columns: C;
  /** The row's identity in the file and in the database (the primary key or a unique text id). */
  readonly key: readonly (keyof C & string)[];
  /**
   * An integer id the database assigns (messages.id, …): kept on import when it is free, otherwise the
   * row gets a new one and every reference to it is rewritten.
   */
  readonly surrogate?: keyof C & string;
  /**
   * Columns that say whether a local row with the same surrogate id is the same row (a message's
   * session, turn, role and time) — ids from two devices collide by chance. With `naturalUnique`, they
   * are also a unique key of their own (summaries: one per session, kind and first turn).
   */
  readonly natural?: readonly (keyof C & string)[];
  readonly naturalUnique?: boolean;
  /** Foreign keys (checked against pragma_foreign_key_list by a test). */
  readonly refs: readonly TableRef<keyof C & string>[];
  /** References that are not foreign keys but are rewritten when the row they name gets a new id. */
  readonly softRefs?: readonly TableRef<keyof C & string>[];
  /** When the same row differs, the one with the greater values here (in order) is the newer. */
  readonly newer?: readonly (keyof C & string)[];
  /** SQL columns deliberately not exported (internal integer keys that only the FTS index uses). */
  readonly hidden?: readonly string[];
  /** WITHOUT ROWID tables are paged by their primary key instead of their rowid. */
  readonly withoutRowid?: boolean;
  /** Key columns SQLite compares with COLLATE NOCASE (ASCII case folded). */
  readonly nocase?: readonly (keyof C & string)[];
}

export function defineTable<const N extends string, const C extends Record<string, ColumnSpec>>(
  t: TableSpec<C> & { name: N },
): TableSpec<C> & { name: N } {
  return t;
}

/**
 * The strict zod object for one row of `t`, built from its column specs. The shape's entries are getters, so
 * the columns' schemas are built when the row schema is first used (zod reads a getter shape lazily), not here.
 */
export function rowSchema<C extends Record<string, ColumnSpec>>(t: TableSpec<C>) {
  return z.strictObject(lazyShape(Object.keys(t.columns), (name) => (t.columns[name] as ColumnSpec).schema) as { [K in keyof C]: C[K]['schema'] });
}

/** `{ [key]: make(key) }` with each value made on first read (enumerable getters, as zod's lazy shapes are). */
export function lazyShape<T>(keys: readonly string[], make: (key: string) => T): Record<string, T> {
  const shape: Record<string, T> = {};
  for (const key of keys) Object.defineProperty(shape, key, { enumerable: true, configurable: true, get: () => make(key) });
  return shape;
}

/** The rows of `t` in a file: an array, absent = none (an older file may predate the table). */
export function rowsSchema<C extends Record<string, ColumnSpec>>(t: TableSpec<C>) {
  return z.array(rowSchema(t)).max(MAX_ROWS_PER_TABLE).default([]);
}

export type Row = Record<string, unknown>;

const foldAscii = (v: unknown) => (typeof v === 'string' ? v.replace(/[A-Z]/g, (c) => c.toLowerCase()) : v);

/** A row's identity as one string (for maps and sets): the key columns' values, JSON-encoded. */
export function keyOf(t: Pick<TableSpec, 'key' | 'nocase'>, row: Row, columns: readonly string[] = t.key): string {
  const value = (k: string) => (t.nocase?.includes(k) ? foldAscii(row[k]) : row[k]);
  return columns.length === 1 ? JSON.stringify(value(columns[0] as string)) : JSON.stringify(columns.map(value));
}
