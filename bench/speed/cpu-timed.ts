/**
 * Statement timing for the native step scripts (import-steps.ts, reindex-merge.ts): every statement of a
 * better-sqlite3 driver, and each transaction's BEGIN and COMMIT, reported with its wall time and the CPU time
 * this process spent in it. On a loaded machine the wall time also holds waiting for a core or the disk; the CPU
 * time is what the statement costs. (reindex-steps.ts times wall only; issue 16.)
 */
import type Database from 'better-sqlite3';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { createTransactionRunner, type SqlDriver } from '../../src/lib/engine/store/driver';

export const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export interface TimedStatement {
  /** The statement, whitespace folded, cut to 90 characters. */
  sql: string;
  /** performance.now() when it started. */
  at: number;
  ms: number;
  cpu: number;
}

export function cpuTimedDriver(db: Database.Database, onStatement: (s: TimedStatement) => void): SqlDriver {
  const base = createBetterSqlite3Driver(db);
  const timed = <R>(sql: string, f: () => R): R => {
    const t0 = performance.now();
    const c0 = cpuMs();
    try {
      return f();
    } finally {
      onStatement({ sql: sql.replace(/\s+/g, ' ').slice(0, 90), at: t0, ms: performance.now() - t0, cpu: cpuMs() - c0 });
    }
  };
  const exec = (sql: string) => timed(sql, () => base.exec(sql));
  return {
    ...base,
    exec,
    run: (sql, p) => timed(sql, () => base.run(sql, p)),
    all: (sql, p) => timed(sql, () => base.all(sql, p)),
    get: (sql, p) => timed(sql, () => base.get(sql, p)),
    transaction: createTransactionRunner(exec, () => db.inTransaction),
  };
}
