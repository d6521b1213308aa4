import type { ExportScope, TableName } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';
import { REGISTRY, registryEntry, type Sel } from './registry';

/**
 * The rows a scope owns, captured at once: for every rowid table a temporary table of the selected rowids,
 * parents first (a project's sessions, their messages, its memories and their history …). An import that
 * replaces a scope deletes these. (An export captures its rows in steps, and adds the closure — the rows
 * they point at: scope-slices.ts.)
 *
 * WITHOUT ROWID tables are children only and follow their parents' captured rows.
 */
export interface ScopeSelection {
  readonly scope: ExportScope;
  /** SQL condition selecting the table's rows in scope (unaliased columns, `rowid`). */
  filter(table: TableName): string;
  /** The temp table of captured rowids (`k`), for rowid tables. */
  keys(table: TableName): string | null;
  count(table: TableName): number;
  /** The named parameters `sql` (built from `filter`) needs. */
  params(sql: string): { scope: string } | undefined;
  drop(): void;
}

let serial = 0;

export function selectScope(driver: SqlDriver, scope: ExportScope): ScopeSelection {
  const n = ++serial;
  const temp = (t: TableName) => `temp.bk${n}_${t}`;
  const created: TableName[] = [];
  const params = (sql: string) => (sql.includes('$scope') && scope.kind !== 'all' ? { scope: scope.id } : undefined);

  const filter = (table: TableName): string => {
    const entry = registryEntry(table);
    if (entry.spec.withoutRowid) return ownSql(table);
    return `rowid IN (SELECT k FROM ${temp(table)})`;
  };
  const sel: Sel = (outer, table, column) => `${outer} IN (SELECT ${column} FROM ${table} WHERE ${filter(table)})`;
  const ownSql = (table: TableName): string => {
    const predicate = registryEntry(table).own[scope.kind];
    return predicate ? `(${predicate(sel)})` : scope.kind === 'all' ? '1' : '0';
  };

  try {
    for (const { spec } of REGISTRY) {
      if (spec.withoutRowid) continue;
      driver.exec(`CREATE TEMP TABLE bk${n}_${spec.name} (k INTEGER PRIMARY KEY)`);
      created.push(spec.name);
      const sql = `INSERT INTO ${temp(spec.name)} (k) SELECT rowid FROM ${spec.name} WHERE ${ownSql(spec.name)}`;
      driver.run(sql, params(sql));
    }
  } catch (err) {
    for (const t of created) driver.exec(`DROP TABLE IF EXISTS ${temp(t)}`);
    throw err;
  }

  return {
    scope,
    filter,
    params,
    keys: (table) => (registryEntry(table).spec.withoutRowid ? null : temp(table)),
    count(table) {
      const sql = `SELECT COUNT(*) AS n FROM ${table} WHERE ${filter(table)}`;
      return driver.get<{ n: number }>(sql, params(sql))?.n ?? 0;
    },
    drop() {
      for (const t of created.splice(0)) driver.exec(`DROP TABLE IF EXISTS ${temp(t)}`);
    },
  };
}
