/**
 * What makes one reindex slice long on a big store (issue 16 item 5: at a million turns one slice of 237.5 ms, its
 * COMMIT most of it). maintenance.reindex's slices (fts-reindex-slices.ts) on a copy of a native store, in WAL mode
 * with the page budget the browser uses (pages counted from the WAL file's size: automatic checkpoints off, the tool
 * truncates the WAL between slices now and then), each
 * statement and COMMIT timed (cpu-timed.ts); for the slowest slices, the FTS5 structure of the index being written
 * before and after (levels: segments, their leaf pages, a merge in progress) — where a COMMIT's crisis merge or a
 * 'merge' statement's unbounded term shows.
 *
 *   npx tsx bench/speed/reindex-structure.ts --db /tmp/c29-root/prefill-100000.sqlite3 [--top 8]
 *
 * What it showed at a million turns (stall-inputs' prefill, load ~2.5, 32,147 slices, CPU): the longest slice 128.6 ms,
 * 16 steps and a COMMIT of 121.8 ms writing 836 pages — FTS5's crisis merge (automerge is off, crisismerge is not):
 * summaries_fts had 14 / 15 / 48 segments on levels 0 / 1 / 2, the flush made level 0 16 and the merge cascaded through
 * all three. The pacer's merging (4 pages every 30 rows) falls far behind what the rows write (~1.5 pages a step), so
 * segments pile up until a COMMIT merges them whole. The other slices over 50 ms: single 4-page 'merge' steps at the end
 * (31-75 ms CPU) merging the biggest segments, where the rewritten rows' deletes annihilate old entries (FTS5 bounds
 * a merge by the leaves it writes, not by those it reads). At 100,000 turns: longest 57.6 ms (JavaScript), no such COMMIT.
 */
import Database from 'better-sqlite3';
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { reindexInSlices } from '../../src/lib/engine/store/fts-reindex-slices';
import { cpuMs, cpuTimedDriver } from './cpu-timed';
import { decodeFtsStructure, type FtsStructure } from '../../src/lib/engine/store/fts-structure';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] as string) : fallback;
};
const src = arg('db', '');
if (!src) throw new Error('--db <native store> is required');
const top = Number(arg('top', '8'));
const work = `/tmp/reindex-structure-${process.pid}.db`;
copyFileSync(src, work);
const db = new Database(work);
db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;');
const pageSize = db.pragma('page_size', { simple: true }) as number;
// Pages appended to the WAL: its size, plus what earlier checkpoints truncated away.
let truncated = 0;
const walNow = () => {
  try {
    return Math.max(0, Math.floor((statSync(`${work}-wal`).size - 32) / (pageSize + 24)));
  } catch {
    return 0;
  }
};
const walPages = () => truncated + walNow();
/**
 * Between slices, past WAL_TRUNCATE_PAGES: a checkpoint that truncates the WAL (a first run never checkpointed: at a
 * million turns its WAL reached 15 GB, and every page read searched a wal-index of ~900 hash tables — the late slices
 * were slower for that alone).
 */
const WAL_TRUNCATE_PAGES = 20_000;
const truncateWal = () => {
  const n = walNow();
  if (n < WAL_TRUNCATE_PAGES) return;
  db.pragma('wal_checkpoint(TRUNCATE)');
  truncated += n;
};
const structure = (table: string): FtsStructure | null => {
  const row = db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).get() as { block: Uint8Array } | undefined;
  return row ? decodeFtsStructure(row.block) : null;
};
const brief = (s: FtsStructure | null) => (s ? s.levels.map((l) => `${l.merging ? `${l.merging}>` : ''}[${l.segments.map((g) => g.pages).join(',')}]`).join(' ') : '-');

interface Part { sql: string; ms: number; cpu: number }
let parts: Part[] = [];
const timed = cpuTimedDriver(db, ({ sql, ms, cpu }) => parts.push({ sql, ms, cpu }));
const tables = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];
let before = Object.fromEntries(tables.map((t) => [t, brief(structure(t))]));
const slices: { n: number; ms: number; cpu: number; commitCpu: number; steps: number; commitMs: number; pages: number; longestMerge: number; mergeSql: string; before: Record<string, string>; after: Record<string, string> }[] = [];
let pages0 = walPages();
let c0 = cpuMs();
const t0 = performance.now();
await reindexInSlices(timed, {
  pagesWritten: walPages,
  checkpointEveryPages: 1e9,
  onSlice: (ms, timing) => {
    const merges = parts.filter((p) => p.sql.includes("'merge'"));
    const longest = merges.reduce((m, p) => (p.cpu > m.cpu ? p : m), { sql: '', ms: 0, cpu: 0 });
    const c = cpuMs();
    const commitCpu = parts.filter((p) => p.sql === 'COMMIT').reduce((n, p) => n + p.cpu, 0);
    const pages = walPages();
    const after = Object.fromEntries(tables.map((t) => [t, brief(structure(t))]));
    slices.push({ n: slices.length, ms, cpu: c - c0, commitCpu, steps: timing.steps, commitMs: timing.commitMs, pages: pages - pages0, longestMerge: longest.cpu, mergeSql: longest.sql.match(/INTO (\w+)/)?.[1] ?? '', before, after });
    before = after;
    truncateWal();
    pages0 = walPages();
    c0 = cpuMs();
    parts = [];
  },
});
const wall = performance.now() - t0;
const r1 = (x: number) => Math.round(x * 10) / 10;
// CPU time: this process's own work (wall times on the shared machine hold waits for a core).
const byMs = [...slices].sort((a, b) => b.cpu - a.cpu);
console.log(JSON.stringify({ src, slices: slices.length, wallS: r1(wall / 1000), longestCpu: r1(byMs[0]?.cpu ?? 0), over20Cpu: slices.filter((s) => s.cpu > 20).length, over50Cpu: slices.filter((s) => s.cpu > 50).length, longestWall: r1(Math.max(...slices.map((s) => s.ms))), longestCommitCpu: r1(Math.max(...slices.map((s) => s.commitCpu))), longestMergeCpu: r1(Math.max(...slices.map((s) => s.longestMerge))), maxPages: Math.max(...slices.map((s) => s.pages)) }));
for (const s of byMs.slice(0, top)) {
  console.log(`slice ${s.n}: CPU ${r1(s.cpu)} ms (wall ${r1(s.ms)}), ${s.steps} steps, COMMIT CPU ${r1(s.commitCpu)} ms, ${s.pages} pages, longest merge CPU ${r1(s.longestMerge)} ms ${s.mergeSql}`);
  for (const t of tables) if (s.before[t] !== s.after[t]) console.log(`   ${t}: ${s.before[t]}\n   ${' '.repeat(t.length)}→ ${s.after[t]}`);
}
db.close();
rmSync(work, { force: true });
rmSync(`${work}-wal`, { force: true });
rmSync(`${work}-shm`, { force: true });
