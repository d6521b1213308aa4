import type { Row } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import type { EngineTable } from './registry';
import { toFileRow, toSqlValue } from './row-codec';

/** A local row in file form, with its rowid (-1 for WITHOUT ROWID tables, which need none). */
export interface LocalRow {
  rowid: number;
  row: Row;
}

/**
 * The lookups an import makes for each incoming row, all by indexed columns. `IS` compares NULLs as
 * equal (a global memory's project_id), and uses the index like `=`.
 */
export function createRowLookup(driver: SqlDriver) {
  function where(entry: EngineTable, columns: readonly string[], extra?: string): string {
    const parts = columns.map((c) => `${c} IS ?`);
    if (extra) parts.push(`(${extra})`);
    return parts.join(' AND ');
  }

  function select(entry: EngineTable, columns: readonly string[], values: Row, opts: { extra?: string; limit: number }): LocalRow[] {
    const { spec } = entry;
    const head = spec.withoutRowid ? 'SELECT -1 AS __rowid, *' : 'SELECT rowid AS __rowid, *';
    const sql = `${head} FROM ${spec.name} WHERE ${where(entry, columns, opts.extra)} LIMIT ${opts.limit}`;
    return driver
      .all<Record<string, unknown>>(sql, columns.map((c) => toSqlValue(spec, c, values[c])))
      .map((r) => ({ rowid: r.__rowid as number, row: toFileRow(spec, r) }));
  }

  return {
    /** The row with the same key (primary key or unique id), if any. */
    byKey(entry: EngineTable, values: Row): LocalRow | undefined {
      return select(entry, entry.spec.key, values, { limit: 1 })[0];
    },
    /** Rows with the same values in `columns` (a natural key or a duplicate rule), a bounded few (`limit` -1: all). */
    byColumns(entry: EngineTable, columns: readonly string[], values: Row, extra?: string, limit = 50): LocalRow[] {
      return select(entry, columns, values, { extra, limit });
    },
  };
}

export type RowLookup = ReturnType<typeof createRowLookup>;
