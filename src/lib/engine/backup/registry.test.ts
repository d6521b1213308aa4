import { describe, expect, it } from 'vitest';
import { TABLES } from '../../domain/backup';
import { createTestEngine } from '../testing';
import { EXCLUDED_TABLES, REGISTRY } from './registry';
import { schemaTables, tableColumns } from './schema-tables';

/**
 * The registry is the one list of what a backup contains. These tests read the live schema (all
 * migrations applied), so a table or column a migration adds fails here until it is registered.
 */
describe('backup registry against the schema', async () => {
  const { driver } = await createTestEngine();

  it('covers every table of the schema: exported, or excluded with a reason', () => {
    const registered = new Set(REGISTRY.map((e) => e.spec.name as string));
    const unaccounted = schemaTables(driver).filter((t) => !registered.has(t) && !(t in EXCLUDED_TABLES));
    expect(unaccounted, 'tables neither in domain/backup/tables.ts nor in EXCLUDED_TABLES').toEqual([]);
  });

  it('names no table the schema lacks', () => {
    const tables = new Set(schemaTables(driver));
    expect([...REGISTRY.map((e) => e.spec.name), ...Object.keys(EXCLUDED_TABLES)].filter((t) => !tables.has(t))).toEqual([]);
  });

  it.each(TABLES.map((t) => [t.name, t] as const))('%s: exports exactly its SQL columns (but hidden ones)', (name, spec) => {
    const sql = tableColumns(driver, name).filter((c) => !(spec.hidden ?? []).includes(c));
    expect(Object.keys(spec.columns).sort()).toEqual(sql.sort());
  });

  it.each(TABLES.map((t) => [t.name, t] as const))('%s: declares the foreign keys SQLite enforces', (name, spec) => {
    const fks = driver
      .all<{ table: string; from: string; to: string }>('SELECT "table", "from", "to" FROM pragma_foreign_key_list(?)', [name])
      .map((f) => `${f.from}→${f.table}.${f.to}`)
      .sort();
    expect(spec.refs.map((r) => `${r.column}→${r.table}.${r.target}`).sort()).toEqual(fks);
  });

  it.each(TABLES.map((t) => [t.name, t] as const))('%s: is WITHOUT ROWID exactly when the spec says so', (name, spec) => {
    const sql = driver.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [name])?.sql ?? '';
    expect(/WITHOUT\s+ROWID/i.test(sql)).toBe(spec.withoutRowid === true);
  });

  // Issue 16: the export pages a WITHOUT ROWID table by `key` (ORDER BY key, WHERE (key) > (…)). Unless that is the
  // table's primary key, column for column and in order, with the collation SQLite compares it by, every page is
  // a scan and sort of the whole table (symbol_index was keyed (symbol, turn_id) on a (turn_id, symbol) table).
  it.each(TABLES.filter((t) => t.withoutRowid).map((t) => [t.name, t] as const))('%s: its key is the primary key SQLite stores it by', (name, spec) => {
    const pk = driver.get<{ name: string }>("SELECT name FROM pragma_index_list(?) WHERE origin = 'pk'", [name]);
    expect(pk, `${name} has no primary key index`).toBeDefined();
    const columns = driver.all<{ name: string; coll: string }>('SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno', [pk?.name]);
    expect([...spec.key]).toEqual(columns.map((c) => c.name));
    expect([...(spec.nocase ?? [])].sort()).toEqual(columns.filter((c) => c.coll.toUpperCase() === 'NOCASE').map((c) => c.name).sort());
  });

  it('lists parents before their children', () => {
    const order = TABLES.map((t) => t.name as string);
    for (const t of TABLES) for (const ref of t.refs) expect(order.indexOf(ref.table), `${t.name} → ${ref.table}`).toBeLessThan(order.indexOf(t.name));
  });
});
