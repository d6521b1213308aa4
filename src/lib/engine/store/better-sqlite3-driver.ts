import type BetterSqlite3 from 'better-sqlite3';
import { createTransactionRunner, normaliseParam, type Row, type SqlDriver, type SqlParams, type SqlValue } from './driver';

export interface BetterSqlite3Options {
  /**
   * Waiting for another process's write lock (BEGIN IMMEDIATE): it is tried first for `firstSliceMs`
   * (default `sliceMs`), then in slices of `sliceMs`, for up to `busyTimeoutMs` in all; `onLockWait` is
   * told once when the first slice found the lock taken — so a holder that writes in steps can see someone
   * waits — and `onStillWaiting` once when a later slice found it taken too, so the caller can say who holds it
   * when the wait is one a person notices, not every time two writers brush past each other.
   */
  lockWait?: { busyTimeoutMs: number; sliceMs: number; firstSliceMs?: number; onLockWait(): void; onStillWaiting?(): void; onLockWaitOver?(): void };
  /** Turns a failure into the one that says what happened (e.g. a busy lock that names its holder). */
  translateError?: (err: unknown) => unknown;
}

const isBusy = (err: unknown) => /^SQLITE_BUSY/.test((err as { code?: string }).code ?? '');

/** The Node host's driver (CLI, REST, native benchmark). Same port, same SQL, same migrations. */
export function createBetterSqlite3Driver(db: BetterSqlite3.Database, opts: BetterSqlite3Options = {}): SqlDriver {
  const guard = <T>(op: () => T): T => {
    if (!opts.translateError) return op();
    try {
      return op();
    } catch (err) {
      throw opts.translateError(err);
    }
  };
  /** BEGIN IMMEDIATE in slices, telling the caller once that it waits. */
  const begin = (): void => {
    const wait = opts.lockWait;
    if (!wait) return db.exec('BEGIN IMMEDIATE') as unknown as void;
    const deadline = Date.now() + wait.busyTimeoutMs;
    let told = false;
    let toldStill = false;
    try {
      for (;;) {
        const slice = told ? wait.sliceMs : (wait.firstSliceMs ?? wait.sliceMs);
        db.pragma(`busy_timeout = ${Math.max(1, Math.min(slice, deadline - Date.now()))}`);
        try {
          db.exec('BEGIN IMMEDIATE');
          return;
        } catch (err) {
          if (!isBusy(err) || Date.now() >= deadline) throw err;
          if (!told) {
            told = true;
            wait.onLockWait();
          } else if (!toldStill) {
            toldStill = true;
            wait.onStillWaiting?.();
          }
        }
      }
    } finally {
      db.pragma(`busy_timeout = ${wait.busyTimeoutMs}`);
      if (told) wait.onLockWaitOver?.();
    }
  };
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
    guard(() => (sql === 'BEGIN IMMEDIATE' ? begin() : db.exec(sql)));
  };
  return {
    kind: 'better-sqlite3',
    exec,
    run(sql, params) {
      return guard(() => {
        const stmt = statement(sql);
        if (stmt.reader) {
          // A statement with RETURNING: drain it, then ask SQLite what it changed.
          stmt.all(...args(params));
          const { c } = statement('SELECT changes() AS c').get() as { c: number };
          return { changes: c };
        }
        const res = stmt.run(...args(params));
        return { changes: res.changes };
      });
    },
    all<T = Row>(sql: string, params?: SqlParams): T[] {
      return guard(() => statement(sql).all(...args(params)) as T[]);
    },
    get<T = Row>(sql: string, params?: SqlParams): T | undefined {
      return guard(() => statement(sql).get(...args(params)) as T | undefined);
    },
    transaction: createTransactionRunner(exec, () => db.inTransaction),
    close() {
      cache.clear();
      db.close();
    },
  };
}
