/**
 * What an import's long waits are made of (issue 16): backup.importPreview and backup.importApply of a backup
 * file of `--memories` memories into a native store of `--turns` turns (bulk-filled as bench:speed fills it, the
 * same file bench:speed imports), each statement and each COMMIT timed, and the event loop watched: a
 * setTimeout(0) loop runs beside the import, and the longest gap between two of its ticks is the longest a
 * foreground call would have waited. The three longest gaps of each phase are broken down into the statements
 * that ran inside them (and the JavaScript between them).
 *
 * With `--mode replace` the file (an export of everything) replaces the whole store: its apply first removes the
 * store's `--turns` turns and every other row (issue 16: that removal was one slice, one transaction).
 *
 *   npx tsx bench/speed/import-steps.ts [--turns 100000] [--memories 10000] [--db /tmp/import-steps.db] [--apply no] [--mode merge|replace]
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createImportService } from '../../src/lib/engine/backup/import-service';
import { cpuMs, cpuTimedDriver, type TimedStatement } from './cpu-timed';
import { filledSnapshot, writeMemoryBackup } from './native';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const turns = Number(arg('turns', '100000'));
const memories = Number(arg('memories', '10000'));
const path = arg('db', '/tmp/import-steps.db');
const filePath = `${path}.memories-${memories}.json`;
const mode = arg('mode', 'merge');
if (mode !== 'merge' && mode !== 'replace') throw new Error(`--mode: merge or replace, not ${mode}`);

await filledSnapshot(path, turns);
if (!existsSync(filePath)) await writeMemoryBackup(filePath, { seed: 42, count: memories });

const work = `${path}.work`;
copyFileSync(path, work);
rmSync(`${work}-journal`, { force: true });
const db = new Database(work);
// The browser's pragmas and durability (store/open-wasm.ts; rollback journal, synchronous = FULL).
db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = FULL;');
const log: TimedStatement[] = [];
/**
 * memories_fts's segments after each COMMIT and each bounded merge, shown beside a slow gap's COMMIT: whether the
 * COMMIT merged segments (fewer after) or only wrote the slice's own (FTS5 also starts a new one when a rowid
 * comes in below the last). A COMMIT of a slice that wrote no full-text rows is the journal's writes and syncs.
 */
const segments = db.prepare('SELECT COUNT(DISTINCT segid) AS n FROM memories_fts_idx').pluck();
let segs = segments.get() as number;
const commitSegs = new Map<TimedStatement, string>();
const driver = cpuTimedDriver(db, (st) => {
  log.push(st);
  if (st.sql === 'COMMIT' || st.sql.includes("'merge'")) {
    const now = segments.get() as number;
    if (st.sql === 'COMMIT') commitSegs.set(st, `${segs} → ${now}`);
    segs = now;
  }
});

/** Garbage collections (start, duration): a gap can be a collector's pause rather than the import's work. */
const gcs: { at: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ at: e.startTime, ms: e.duration });
}).observe({ entryTypes: ['gc'] });

/** The event loop's gaps while `job` runs: what a call queued at any moment would wait, at most. */
async function watched(name: string, job: () => Promise<unknown>): Promise<void> {
  log.length = 0;
  const gaps: { from: number; to: number; cpu: number }[] = [];
  let running = true;
  let last = performance.now();
  let lastCpu = cpuMs();
  const tick = () => {
    const t = performance.now();
    const c = cpuMs();
    gaps.push({ from: last, to: t, cpu: c - lastCpu });
    last = t;
    lastCpu = c;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const t0 = performance.now();
  await job();
  const jobMs = performance.now() - t0;
  running = false;
  await new Promise((r) => setTimeout(r, 5));
  // Longest by CPU time: what the gap would be on a quiet machine (on a loaded one the wall time also holds
  // the time this process waited for a core or for the disk's fsync).
  const ms = (g: { from: number; to: number }) => g.to - g.from;
  const byWall = [...gaps].sort((a, b) => ms(b) - ms(a));
  const sorted = [...gaps].sort((a, b) => b.cpu - a.cpu);
  const p95 = [...gaps].map((g) => g.cpu).sort((a, b) => a - b)[Math.floor(gaps.length * 0.95)] ?? 0;
  console.log(`\n== ${name}: job ${jobMs.toFixed(0)} ms, ${gaps.length} gaps; longest by CPU ${sorted.slice(0, 8).map((g) => g.cpu.toFixed(1)).join(' ')} ms (p95 ${p95.toFixed(1)}); by wall ${byWall.slice(0, 5).map((g) => ms(g).toFixed(1)).join(' ')} ms`);
  for (const g of sorted.slice(0, 3)) {
    const inside = log.filter((s) => s.at >= g.from && s.at < g.to);
    const by = new Map<string, { n: number; ms: number; max: number; cpu: number }>();
    for (const s of inside) {
      const b = by.get(s.sql) ?? { n: 0, ms: 0, max: 0, cpu: 0 };
      b.n++;
      b.ms += s.ms;
      b.cpu += s.cpu;
      b.max = Math.max(b.max, s.ms);
      by.set(s.sql, b);
    }
    const sqlMs = inside.reduce((n, s) => n + s.ms, 0);
    const sqlCpu = inside.reduce((n, s) => n + s.cpu, 0);
    const gcMs = gcs.filter((x) => x.at >= g.from && x.at < g.to).reduce((n, x) => n + x.ms, 0);
    console.log(`  gap ${ms(g).toFixed(1)} ms wall, ${g.cpu.toFixed(1)} ms CPU: ${inside.length} statements ${sqlMs.toFixed(1)} ms wall / ${sqlCpu.toFixed(1)} CPU, the rest (JS) ${(g.cpu - sqlCpu).toFixed(1)} ms CPU, of which GC ${gcMs.toFixed(1)} ms wall; at ${(g.from - t0).toFixed(0)} ms`);
    for (const [sql, b] of [...by.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6))
      console.log(`    ${b.ms.toFixed(1).padStart(7)} ms ${b.cpu.toFixed(1).padStart(7)} CPU ${String(b.n).padStart(5)}× (max ${b.max.toFixed(1)})  ${sql}`);
    const commits = inside.filter((s) => commitSegs.has(s)).map((s) => `${s.cpu.toFixed(1)} ms CPU, memories_fts segments ${commitSegs.get(s)}`);
    if (commits.length) console.log(`    COMMIT: ${commits.join('; ')}`);
  }
}

let counting = 0;
const svc = createImportService({
  env: { driver, clock: systemClock, ids: randomId, log: silentLogger },
  files: undefined,
  previewSlices: { onSlice: () => void (counting ||= performance.now()) },
});
const blob = new Blob([readFileSync(filePath)], { type: 'application/json' });
console.log(`store ${turns} turns, file ${memories} memories (${(blob.size / 2 ** 20).toFixed(1)} MB), ${mode}`);
let token = '';
await watched('import preview', async () => {
  const t0 = performance.now();
  token = (await svc.preview({ file: blob, mode })).token;
  console.log(`  (reading the file ${(counting - t0).toFixed(0)} ms, then counting ${(performance.now() - counting).toFixed(0)} ms)`);
});
if (arg('apply', 'yes') !== 'no') await watched('import apply', async () => {
  const two = svc.apply(token, mode);
  const written = driver.transaction(() => two.write());
  await two.then(written);
});
db.close();
rmSync(work, { force: true });
