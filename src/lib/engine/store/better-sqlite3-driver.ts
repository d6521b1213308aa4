import type BetterSqlite3 from 'better-sqlite3';
import { createTransactionRunner, normaliseParam, type Row, type SqlDriver, type SqlParams, type SqlValue } from './driver';

/** The Node host's driver (CLI, REST, native benchmark). Same port, same SQL, same migrations. */
export function createBetterSqlite3Driver(db: BetterSqlite3.Database): SqlDriver {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const statement = (sql: string): BetterSqlite3.Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  const args = (params: SqlParams | undefined): unknown[] => {
    if (params === undefined) return [];
    if (Array.isArray(params)) return (params as readonly unknown[]).map((p) => normaliseParam(p as never));
    const named: Record<string, SqlValue> = {};
    for (const [key, value] of Object.entries(params)) named[key] = normaliseParam(value);
    return [named];
  };
  const exec = (sql: string): void => {
    db.exec(sql);
  };
  return {
    kind: 'better-sqlite3',
    exec,
    run(sql, params) {
      const stmt = statement(sql);
      if (stmt.reader) {
        // A statement with RETURNING: drain it, then ask SQLite what it changed.
        stmt.all(...args(params));
        const { c } = statement('SELECT changes() AS c').get() as { c: number };
        return { changes: c };
      }
      const res = stmt.run(...args(params));
      return { changes: res.changes };
    },
    all<T = Row>(sql: string, params?: SqlParams): T[] {
      return statement(sql).all(...args(params)) as T[];
    },
    get<T = Row>(sql: string, params?: SqlParams): T | undefined {
      return statement(sql).get(...args(params)) as T | undefined;
    },
    transaction: createTransactionRunner(exec, () => db.inTransaction),
    close() {
      cache.clear();
      db.close();
    },
  };
}
