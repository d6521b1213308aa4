import type { Row, TableSpec } from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import type { SqlValue } from '../store/driver';

/**
 * SQL row ⇄ file row, column by column as the spec says: JSON columns are parsed into JSON values (and
 * serialised back with JSON.stringify, as the repositories write them), 0/1 becomes a boolean, the
 * rest passes through. Hidden columns (an internal `rid`) are dropped.
 */
export function toFileRow(t: TableSpec, sql: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [name, c] of Object.entries(t.columns)) {
    const v = sql[name];
    if (v === null || v === undefined) {
      out[name] = null;
    } else if (c.kind === 'json') {
      try {
        out[name] = JSON.parse(v as string);
      } catch {
        // Never silently export something else than what is stored: say which table and column.
        throw new EngineError('INTERNAL', `A row of \`${t.name}\` holds text in \`${name}\` that is not JSON; run maintenance, then export again.`, {
          table: t.name,
          column: name,
        });
      }
    } else if (c.kind === 'bool') {
      out[name] = v === 1 || v === 1n || v === true;
    } else {
      out[name] = typeof v === 'bigint' ? Number(v) : v;
    }
  }
  return out;
}

export function toSqlValue(t: TableSpec, name: string, value: unknown): SqlValue {
  const c = t.columns[name];
  if (value === null || value === undefined) return null;
  if (c?.kind === 'json') return JSON.stringify(value);
  if (c?.kind === 'bool') return value ? 1 : 0;
  return value as SqlValue;
}

/** The spec's columns of `t`, in spec order. */
export const columnsOf = (t: TableSpec): string[] => Object.keys(t.columns);
