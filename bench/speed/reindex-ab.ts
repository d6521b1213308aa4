/**
 * Two versions of the reindex side by side in one process (issue 16): `--a` and `--b` are modules exporting
 * reindexInSlices (b defaults to src/lib/engine/store/fts-reindex-slices.ts), each run on its own copy of one
 * native store of `--turns` turns, alternating a, b, a, b … for `--rounds` rounds. A setTimeout(0) loop runs
 * beside each reindex: its longest gap is the longest a queued foreground call would have waited (the slice and
 * the yield). Per run: that gap, the longest and p99 slice (BEGIN to COMMIT, wall; every slice runs its 20 ms
 * budget, so those over 30 ms are counted), the same in CPU time, the whole job's wall and CPU time. Run it with
 * V8's GC on the main thread so that the process's CPU time is the reindex's own:
 *   node --single-threaded-gc --import tsx bench/speed/reindex-ab.ts --a … 
 *
 * An older version as `--a`: its file from git, with its relative imports pointed at this checkout, e.g.
 *   mkdir -p /tmp/x16-before && git show 9688ff7:src/lib/engine/store/fts-reindex-slices.ts \
 *     | sed "s#from '\./fts-merge'#from '/tmp/x16-before/fts-merge'#; s#from '\./#from '$PWD/src/lib/engine/store/#; s#from '\.\./\.\./domain#from '$PWD/src/lib/domain#" \
 *     > /tmp/x16-before/fts-reindex-slices.ts
 *   git show 9688ff7:src/lib/engine/store/fts-merge.ts | sed "s#from '\./driver'#from '$PWD/src/lib/engine/store/driver'#" > /tmp/x16-before/fts-merge.ts
 *   node --single-threaded-gc --import tsx bench/speed/reindex-ab.ts --a /tmp/x16-before/fts-reindex-slices.ts [--turns 20000] [--rounds 3]
 */
import Database from 'better-sqlite3';
import { copyFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import type { SqlDriver } from '../../src/lib/engine/store/driver';
import { cpuMs } from './cpu-timed';
import { filledSnapshot } from './native';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const turns = Number(arg('turns', '20000'));
const rounds = Number(arg('rounds', '3'));
const path = arg('db', `/tmp/reindex-stalls-${turns}.db`);
const a = resolve(arg('a', ''));
const b = resolve(arg('b', 'src/lib/engine/store/fts-reindex-slices.ts'));
/** --wal <frames>: the browser's journal (WAL, exclusive, synchronous=FULL, this autocheckpoint mark) instead of none. */
const wal = Number(arg('wal', '0'));
if (!arg('a', '')) throw new Error('--a: the module of the version to compare against');

type Reindex = (driver: SqlDriver, opts: { onSlice?: (ms: number) => void }) => Promise<unknown>;
const versions: Record<'a' | 'b', Reindex> = {
  a: ((await import(a)) as { reindexInSlices: Reindex }).reindexInSlices,
  b: ((await import(b)) as { reindexInSlices: Reindex }).reindexInSlices,
};

await filledSnapshot(path, turns);

async function once(v: 'a' | 'b') {
  const work = `${path}.ab-${v}`;
  copyFileSync(path, work);
  const db = new Database(work);
  if (wal > 0) db.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = ${wal};`);
  db.exec(`PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = ${wal > 0 ? 'FULL' : 'OFF'};`);
  const slices: number[] = [];
  const cpuSlices: number[] = [];
  let gap = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const t = performance.now();
    gap = Math.max(gap, t - last);
    last = t;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const t0 = performance.now();
  const c0 = cpuMs();
  let c = c0;
  await versions[v](createBetterSqlite3Driver(db), {
    onSlice: (ms) => {
      const now = cpuMs();
      slices.push(ms);
      cpuSlices.push(now - c);
      c = now;
    },
  });
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = (cpuMs() - c0) / 1000;
  ticking = false;
  db.close();
  rmSync(work, { force: true });
  rmSync(`${work}-wal`, { force: true });
  slices.sort((x, y) => y - x);
  cpuSlices.sort((x, y) => y - x);
  const r1 = (x: number) => +x.toFixed(1);
  return {
    v,
    longestGap: r1(gap),
    longestSlice: r1(slices[0] ?? 0),
    p99: r1(slices[Math.floor(slices.length / 100)] ?? 0),
    over30: slices.filter((s) => s > 30).length,
    // CPU time of each slice (and its yield): what it costs, without the waits for a core a loaded machine adds.
    cpuLongest: r1(cpuSlices[0] ?? 0),
    cpuP99: r1(cpuSlices[Math.floor(cpuSlices.length / 100)] ?? 0),
    cpuOver30: cpuSlices.filter((s) => s > 30).length,
    slices: slices.length,
    wallS: r1(wallS),
    cpuS: r1(cpuS),
  };
}

const rows = [];
for (let r = 0; r < rounds; r++)
  for (const v of r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
    const row = await once(v);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
console.table(rows);
