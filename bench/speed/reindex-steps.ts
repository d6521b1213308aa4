/**
 * Where the reindex's long waits come from (issue 16): maintenance.reindex on a native store of `--turns`
 * turns (bulk-filled as bench:speed fills it), each statement and each slice's COMMIT timed.
 *
 *   npx tsx bench/speed/reindex-steps.ts [--turns 50000] [--db /tmp/reindex-steps.db]
 *
 * Prints the slowest statements (max and total ms), the slowest COMMITs and the slices' longest transaction.
 */
import Database from 'better-sqlite3';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { createTransactionRunner, type SqlDriver } from '../../src/lib/engine/store/driver';
import { reindexInSlices } from '../../src/lib/engine/store/fts-reindex-slices';
import { filledSnapshot } from './native';
import { timedDriver, type StatementStats } from './statement-stats';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const turns = Number(arg('turns', '50000'));
const path = arg('db', '/tmp/reindex-steps.db');

await filledSnapshot(path, turns);

const db = new Database(path);
const base = createBetterSqlite3Driver(db);
const stats: StatementStats = new Map();
const timed = timedDriver(base, stats, { keyLength: 70 });
// The transaction runner on the timed exec: each slice's BEGIN and COMMIT are statements of their own.
const driver: SqlDriver = { ...timed, transaction: createTransactionRunner(timed.exec, () => db.inTransaction) };
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
for (const [sql, s] of rows) console.log(`${s.max.toFixed(1).padStart(8)} max ${s.total.toFixed(0).padStart(7)} total ${String(s.calls).padStart(7)}×  ${sql}`);
db.close();
