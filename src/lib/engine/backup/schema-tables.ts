import type { SqlDriver } from '../store/driver';

/**
 * The ordinary tables of the live schema, read from `sqlite_schema` — not from our registry, so the
 * registry can be checked against it: FTS virtual tables and their shadow tables (`messages_fts_data`,
 * …) are derived indexes and SQLite's own `sqlite_*` tables are internal; everything else is either
 * exported or deliberately excluded (registry.ts EXCLUDED_TABLES).
 */
export function schemaTables(driver: SqlDriver): string[] {
  const rows = driver.all<{ name: string; sql: string | null }>("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name");
  const virtual = rows.filter((r) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  return rows.map((r) => r.name).filter((n) => !n.startsWith('sqlite_') && !virtual.includes(n) && !shadow(n));
}

/** The columns of a table as SQLite declares them. */
export function tableColumns(driver: SqlDriver, table: string): string[] {
  return driver.all<{ name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid', [table]).map((r) => r.name);
}

/** The FTS5 tables of the schema. */
export function ftsTables(driver: SqlDriver): string[] {
  return driver
    .all<{ name: string; sql: string | null }>("SELECT name, sql FROM sqlite_schema WHERE type = 'table'")
    .filter((r) => /^\s*CREATE\s+VIRTUAL\s+TABLE[\s\S]*USING\s+fts5/i.test(r.sql ?? ''))
    .map((r) => r.name)
    .sort();
}
