/**
 * How many pages one bounded FTS5 merge step of the reindex should write (issue 16): maintenance.reindex's slices
 * (fts-reindex-slices.ts) on copies of one native store of `--turns` turns (bulk-filled as bench:speed fills it),
 * once per page count, one after another in one process. Per page count: the longest slice (BEGIN to COMMIT),
 * slices over 50 ms, the longest single 'merge' statement, the whole reindex's time, and the segments each index
 * is left with.
 *
 *   npx tsx bench/speed/reindex-merge.ts [--turns 100000] [--pages 8,4,2] [--rounds 1] [--db /tmp/import-steps.db]
 *
 * The store file is shared with import-steps.ts (same fill, same path by default).
 */
import Database from 'better-sqlite3';
import { copyFileSync, rmSync } from 'node:fs';
import { reindexInSlices } from '../../src/lib/engine/store/fts-reindex-slices';
import { cpuMs, cpuTimedDriver } from './cpu-timed';
import { filledSnapshot } from './native';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const turns = Number(arg('turns', '100000'));
const path = arg('db', '/tmp/import-steps.db');
const pagesList = arg('pages', '8,4,2').split(',').map(Number);
const rounds = Number(arg('rounds', '1'));

await filledSnapshot(path, turns);

const FTS = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];

async function once(pages: number) {
  const work = `${path}.reindex-${pages}`;
  copyFileSync(path, work);
  const db = new Database(work);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = OFF;');
  let mergeMax = 0;
  let merges = 0;
  let commitMax = 0;
  const driver = cpuTimedDriver(db, ({ sql, cpu }) => {
    if (sql.includes("'merge'")) {
      merges++;
      mergeMax = Math.max(mergeMax, cpu);
    }
    if (sql === 'COMMIT') commitMax = Math.max(commitMax, cpu);
  });
  const slices: number[] = [];
  const t0 = performance.now();
  let c = cpuMs();
  await reindexInSlices(driver, {
    mergePages: pages,
    onSlice: () => {
      const now = cpuMs();
      slices.push(now - c);
      c = now;
    },
  });
  const totalMs = performance.now() - t0;
  const segments = FTS.map((t) => (db.prepare(`SELECT COUNT(DISTINCT segid) AS n FROM ${t}_idx`).get() as { n: number }).n);
  db.close();
  rmSync(work, { force: true });
  slices.sort((a, b) => b - a);
  const p = (q: number) => slices[Math.floor(slices.length * (1 - q))] ?? 0;
  return { pages, totalS: +(totalMs / 1000).toFixed(1), slices: slices.length, longestSlice: +slices[0]!.toFixed(1), p99: +p(0.99).toFixed(1), over20: slices.filter((s) => s > 20).length, mergeMax: +mergeMax.toFixed(1), merges, commitMax: +commitMax.toFixed(1), segments: segments.join('/') };
}

const rows = [];
for (let r = 0; r < rounds; r++) for (const pages of pagesList) {
  const row = await once(pages);
  console.log(JSON.stringify(row));
  rows.push(row);
}
console.table(rows);
