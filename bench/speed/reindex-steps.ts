/**
 * Where the reindex's long waits come from (issue 16): maintenance.reindex on a native store of `--turns`
 * turns (bulk-filled as bench:speed fills it), each statement and each slice's COMMIT timed.
 *
 *   npx tsx bench/speed/reindex-steps.ts [--turns 50000] [--db /tmp/reindex-steps.db]
 *
 * Prints the slowest statements (max and total ms), the slowest COMMITs and the slices' longest transaction.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { createTransactionRunner, type SqlDriver } from '../../src/lib/engine/store/driver';
import { reindexInSlices } from '../../src/lib/engine/store/fts-reindex-slices';
import { openNative } from './native';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const turns = Number(arg('turns', '50000'));
const path = arg('db', '/tmp/reindex-steps.db');

if (!existsSync(path)) {
  const run = openNative({ path: `${path}.fill`, seed: 42, total: turns });
  await run.fillTo(turns, (n) => process.stdout.write(`\r  filled ${n}`));
  run.snapshot(path);
  run.close();
  console.log('');
}

const db = new Database(path);
const base = createBetterSqlite3Driver(db);
const stats = new Map<string, { n: number; max: number; total: number }>();
const note = (sql: string, ms: number) => {
  const key = sql.replace(/\s+/g, ' ').slice(0, 70);
  const s = stats.get(key) ?? { n: 0, max: 0, total: 0 };
  s.n++;
  s.total += ms;
  s.max = Math.max(s.max, ms);
  stats.set(key, s);
};
const timed = <R>(sql: string, f: () => R): R => {
  const t0 = performance.now();
  try {
    return f();
  } finally {
    note(sql, performance.now() - t0);
  }
};
const exec = (sql: string) => timed(sql, () => base.exec(sql));
const driver: SqlDriver = {
  ...base,
  exec,
  run: (sql, p) => timed(sql, () => base.run(sql, p)),
  all: (sql, p) => timed(sql, () => base.all(sql, p)),
  get: (sql, p) => timed(sql, () => base.get(sql, p)),
  transaction: createTransactionRunner(exec, () => db.inTransaction),
};
const slices: number[] = [];
const t0 = performance.now();
// runInSlices' own slice timing is reached through onProgress: time between calls is a slice plus a yield.
let last = performance.now();
const report = await reindexInSlices(driver, {
  onProgress: () => {
    const t = performance.now();
    slices.push(t - last);
    last = t;
  },
});
console.log(`reindex ${Math.round(performance.now() - t0)} ms`, report);
slices.sort((a, b) => b - a);
console.log('longest slices (ms):', slices.slice(0, 8).map((x) => x.toFixed(1)).join(' '));
const rows = [...stats.entries()].sort((a, b) => b[1].max - a[1].max).slice(0, 10);
for (const [sql, s] of rows) console.log(`${s.max.toFixed(1).padStart(8)} max ${s.total.toFixed(0).padStart(7)} total ${String(s.n).padStart(7)}×  ${sql}`);
db.close();
