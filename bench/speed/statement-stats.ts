/**
 * Every statement of a driver timed (the benches' stall hunts: reindex-steps.ts, lifecycle-steps.ts): per
 * statement, keyed by its SQL's first characters (whitespace folded), the calls, total and longest ms.
 * Its own module: lifecycle-steps.ts runs when imported, so the helper cannot live there.
 */
import type { SqlDriver } from '../../src/lib/engine/store/driver';

export interface StatementStat {
  calls: number;
  total: number;
  max: number;
}
export type StatementStats = Map<string, StatementStat>;

export function noteStatement(stats: StatementStats, key: string, ms: number): void {
  const s = stats.get(key) ?? { calls: 0, total: 0, max: 0 };
  s.calls++;
  s.total += ms;
  s.max = Math.max(s.max, ms);
  stats.set(key, s);
}

/**
 * `driver` with each statement timed into `stats` (`keyLength`: how much of the SQL names it); `onStatement`
 * sees each statement's ms; `wholeTransaction` also times each transaction whole, as '(whole transaction)'.
 */
export function timedDriver(
  driver: SqlDriver,
  stats: StatementStats,
  opts: { keyLength?: number; onStatement?: (ms: number) => void; wholeTransaction?: boolean } = {},
): SqlDriver {
  const keyLength = opts.keyLength ?? 90;
  const time = <T>(key: string | (() => string), f: () => T): T => {
    const t0 = performance.now();
    try {
      return f();
    } finally {
      const ms = performance.now() - t0;
      opts.onStatement?.(ms);
      noteStatement(stats, typeof key === 'string' ? key : key(), ms);
    }
  };
  const sqlKey = (sql: string) => () => sql.replace(/\s+/g, ' ').slice(0, keyLength);
  return {
    kind: driver.kind,
    exec: (sql) => time(sqlKey(sql), () => driver.exec(sql)),
    run: (sql, p) => time(sqlKey(sql), () => driver.run(sql, p)),
    all: (sql, p) => time(sqlKey(sql), () => driver.all(sql, p)),
    get: (sql, p) => time(sqlKey(sql), () => driver.get(sql, p)),
    transaction: opts.wholeTransaction
      ? (fn) => {
          const t0 = performance.now();
          try {
            return driver.transaction(fn);
          } finally {
            noteStatement(stats, '(whole transaction)', performance.now() - t0);
          }
        }
      : (fn) => driver.transaction(fn),
    close: () => driver.close(),
  };
}
