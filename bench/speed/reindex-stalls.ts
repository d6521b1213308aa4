/**
 * What the reindex's slowest slices are made of (issue 16): maintenance.reindex's slices (fts-reindex-slices.ts) on
 * a copy of one native store of `--turns` turns (bench:speed's bulk fill), every statement timed in CPU time
 * (cpu-timed.ts). Per slice: its CPU time and what it held — row batches, bounded merges while rows are written,
 * the per-index merges at the end, the COMMIT — and for each 'merge' statement the rows FTS5 changed in its
 * %_data/%_idx tables (pages written and pages deleted, roughly). Prints the slowest slices whole and the longest
 * statement of each kind.
 *
 *   node --single-threaded --import tsx bench/speed/reindex-stalls.ts [--turns 20000] [--db /tmp/reindex-stalls-20000.db] [--top 10]
 *
 * (--single-threaded: V8's compiler and collector on the main thread, so that the process's CPU time is the
 * reindex's own; the collector's pauses are then longer than in the browser's worker, and show as jsMs.)
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
const turns = Number(arg('turns', '20000'));
const path = arg('db', `/tmp/reindex-stalls-${turns}.db`);
const top = Number(arg('top', '10'));
/**
 * --wal N: the browser's journal (store/open-wasm.ts: WAL, exclusive locking, synchronous FULL) with SQLite's
 * automatic checkpoint every N pages (its default 1000; 0: never), to see what a checkpoint inside a COMMIT costs.
 */
const wal = arg('wal', '');

await filledSnapshot(path, turns);

type Kind = 'rows' | 'merge' | 'final-merge' | 'commit' | 'begin' | 'other';
interface Part {
  kind: Kind;
  sql: string;
  cpu: number;
  /** Wall time (a COMMIT's syncs wait on the disk, not the CPU). */
  ms: number;
  /** 'merge' statements: rows FTS5 changed (pages written + deleted, roughly). */
  changes?: number;
}
interface Slice {
  n: number;
  cpu: number;
  parts: Part[];
  /** From runInSlices' own timing (wall ms): steps in the slice, the slowest one, and the COMMIT. */
  steps: number;
  slowestStep: number;
}

const work = `${path}.work`;
copyFileSync(path, work);
const db = new Database(work);
db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = OFF;');
if (wal) db.exec(`PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = ${Math.trunc(Number(wal))};`);
const totalChanges = db.prepare('SELECT total_changes() AS n').pluck();
let rowsDone = false;
let current: Part[] = [];
let pendingChanges = 0;
const classify = (sql: string): Kind => {
  if (sql === 'BEGIN' || sql.startsWith('BEGIN')) return 'begin';
  if (sql === 'COMMIT') return 'commit';
  if (sql.includes("'merge'")) return rowsDone ? 'final-merge' : 'merge';
  if (/^(SELECT .* FROM (messages|summaries|memories|episodes) WHERE|DELETE FROM \w+_fts WHERE rowid|INSERT INTO \w+_fts)/.test(sql)) return 'rows';
  return 'other';
};
const timed = cpuTimedDriver(db, ({ sql, cpu, ms }) => {
  const kind = classify(sql);
  current.push(kind === 'merge' || kind === 'final-merge' ? { kind, sql, cpu, ms, changes: pendingChanges } : { kind, sql, cpu, ms });
});
// The 'merge' statement's changes: total_changes() around it (outside the timed call, so not in its CPU time).
const driver = {
  ...timed,
  run: (sql: string, p?: unknown[]) => {
    if (!sql.includes("'merge'")) return timed.run(sql, p as never);
    const before = totalChanges.get() as number;
    let r!: ReturnType<typeof timed.run>;
    pendingChanges = 0;
    // The timed call records the part; patch its changes right after.
    r = timed.run(sql, p as never);
    const last = current.at(-1);
    if (last) last.changes = (totalChanges.get() as number) - before;
    return r;
  },
  // The last table's (episodes') select found no row (or, in a version of the reindex that reads 10 rows a step,
  // fewer than 10): every row is written, what follows is the final merging.
  all: <T>(sql: string, p?: unknown[]) => {
    const rows = timed.all<T>(sql, p as never);
    if (/^SELECT rid, input_summary/.test(sql) && rows.length < 10) rowsDone = true;
    return rows;
  },
  get: <T>(sql: string, p?: unknown[]) => {
    const row = timed.get<T>(sql, p as never);
    if (/^SELECT rid, input_summary/.test(sql) && row === undefined) rowsDone = true;
    return row;
  },
} as typeof timed;

const slices: Slice[] = [];
let c = cpuMs();
const t0 = performance.now();
await reindexInSlices(driver, {
  onSlice: (_ms, timing) => {
    const now = cpuMs();
    slices.push({ n: slices.length, cpu: now - c, parts: current, steps: timing.steps, slowestStep: timing.slowestStepMs });
    current = [];
    c = now;
  },
});
const wallS = (performance.now() - t0) / 1000;
db.close();
rmSync(work, { force: true });
rmSync(`${work}-wal`, { force: true });

const sum = (ps: Part[], k: Kind) => ps.filter((p) => p.kind === k).reduce((n, p) => n + p.cpu, 0);
const r1 = (x: number) => +x.toFixed(1);
const all0 = () => slices.flatMap((s) => s.parts);
const summary = (s: Slice) => {
  const merges = s.parts.filter((p) => p.kind === 'merge' || p.kind === 'final-merge');
  const slowestMerge = merges.reduce<Part | null>((m, p) => (!m || p.cpu > m.cpu ? p : m), null);
  return {
    slice: s.n,
    cpu: r1(s.cpu),
    steps: s.steps,
    slowestStepWall: r1(s.slowestStep),
    // CPU outside any statement: building the rows' full-text columns (segmenting the text), JSON, GC.
    jsMs: r1(s.cpu - s.parts.reduce((n, p) => n + p.cpu, 0)),
    rowsMs: r1(sum(s.parts, 'rows')),
    rowStatements: s.parts.filter((p) => p.kind === 'rows').length,
    mergeMs: r1(sum(s.parts, 'merge')),
    finalMergeMs: r1(sum(s.parts, 'final-merge')),
    merges: merges.length,
    slowestMerge: slowestMerge ? `${r1(slowestMerge.cpu)} ms, ${slowestMerge.changes} changes (${slowestMerge.sql.match(/INTO (\w+)/)?.[1]}${slowestMerge.kind === 'final-merge' ? ', final' : ''})` : '',
    commitMs: r1(sum(s.parts, 'commit')),
    otherMs: r1(sum(s.parts, 'other') + sum(s.parts, 'begin')),
  };
};
const byCpu = [...slices].sort((a, b) => b.cpu - a.cpu);
const q = (p: number) => r1(byCpu[Math.floor(byCpu.length * (1 - p))]?.cpu ?? 0);
console.log(JSON.stringify({ turns, slices: slices.length, wallS: r1(wallS), longest: r1(byCpu[0]?.cpu ?? 0), p99: q(0.99), p95: q(0.95), over20: byCpu.filter((s) => s.cpu > 20).length, over30: byCpu.filter((s) => s.cpu > 30).length }));
console.table(byCpu.slice(0, top).map(summary));
// The longest single statement of each kind, and how merge time grows with the changes a merge made.
const all = slices.flatMap((s) => s.parts);
const longest = (k: Kind) => all.filter((p) => p.kind === k).reduce((m, p) => Math.max(m, p.cpu), 0);
const commits = all0().filter((p) => p.kind === 'commit');
const longestOf = (xs: number[]) => xs.sort((x, y) => y - x).slice(0, 5).map(r1).join(' ');
console.log(`COMMITs: ${commits.length}; over 5 ms CPU: ${commits.filter((c) => c.cpu > 5).length}, longest ${longestOf(commits.map((c) => c.cpu))}; over 20 ms wall: ${commits.filter((c) => c.ms > 20).length}, longest ${longestOf(commits.map((c) => c.ms))}`);
console.log('longest statement per kind (CPU ms):', Object.fromEntries((['rows', 'merge', 'final-merge', 'commit', 'other'] as Kind[]).map((k) => [k, r1(longest(k))])));
const merges = all.filter((p) => p.changes !== undefined);
const buckets = new Map<string, { n: number; cpu: number; max: number }>();
for (const m of merges) {
  const b = m.changes! < 10 ? '<10' : m.changes! < 25 ? '10-24' : m.changes! < 50 ? '25-49' : m.changes! < 100 ? '50-99' : m.changes! < 200 ? '100-199' : '200+';
  const e = buckets.get(b) ?? { n: 0, cpu: 0, max: 0 };
  e.n++;
  e.cpu += m.cpu;
  e.max = Math.max(e.max, m.cpu);
  buckets.set(b, e);
}
console.log('merge statements by changes made:');
console.table([...buckets].map(([changes, e]) => ({ changes, merges: e.n, meanMs: r1(e.cpu / e.n), maxMs: r1(e.max) })));
