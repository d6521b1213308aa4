/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): which way of keeping episodes_fts merged as it
 * grows brings episode recall's ranking statement near its cost after FTS5 'optimize', and what it adds to each
 * episode.record. Native SQLite (better-sqlite3, the wasm page size), CPU time, every policy side by side in one
 * process: the same 10,000 episodes' text rows written one per transaction (as episode.record writes them) into a
 * fresh index per policy, then the recall statement over each index alternately.
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-merge-probe.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 *
 * Prints per policy: the FTS insert's CPU per record (p50 / p95 / max, merge included), the segments the index ends
 * with, and CPU ms per recall query.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recallMatch } from '../../src/lib/engine/episodes/recall';
import { RANK_WINDOW } from '../../src/lib/engine/store/episode-recall-query';
import { EPISODE_FTS_INSERT, episodeFtsColumns } from '../../src/lib/engine/store/fts-columns';
import { WASM_PAGE_SIZE } from './native';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' }, only: { type: 'string' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');
const source = new Database(readFileSync(values.db));
const rows = source
  .prepare<[], { rid: number; input_summary: string; candidates: string; selected_index: number; final_text: string | null }>(
    'SELECT rid, input_summary, candidates, selected_index, final_text FROM episodes ORDER BY rid',
  )
  .all()
  .map((e) => ({ rid: e.rid, cols: episodeFtsColumns({ inputSummary: e.input_summary, keptText: e.final_text ?? (JSON.parse(e.candidates) as string[])[e.selected_index] ?? '' }) }));
const matches = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: { text: string } }[])
  .map((q) => recallMatch(q.input.text).match)
  .filter((m): m is string => m !== null);

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

type Policy = { name: string; setup?: string[]; after?: (db: Database.Database, n: number) => void; end?: string };
const cmd = (db: Database.Database, c: string, n?: number) => db.exec(`INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('${c}', ${n ?? 0})`);
/**
 * An incremental full merge ('merge' with a negative page count: every segment into one) started when the rows
 * written since the last one reach `share` of the index, then `pages` pages per record until it is done.
 */
function geometric(share: number, pages: number) {
  let since = 0;
  let merging = false;
  return (db: Database.Database, n: number) => {
    since++;
    if (!merging && since >= Math.max(64, share * n)) (merging = true), (since = 0);
    if (!merging) return;
    const before = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    // A negative count starts a merge of every segment (and restarts it on each call while new segments come);
    // a positive one carries on the merge in progress.
    cmd(db, 'merge', since === 0 ? -pages : pages);
    since = Math.max(since, 1);
    const after = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    if (after.n - before.n < 2) merging = false;
  };
}
const ALL: Policy[] = [
  { name: 'automerge 4 (today)' },
  { name: 'automerge 2', setup: ["INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('automerge', 2)"] },
  { name: 'usermerge 2 + merge 16 / 8 rec', setup: ["INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('usermerge', 2)"], after: (db, n) => n % 8 === 0 && cmd(db, 'merge', 16) },
  { name: 'merge 8 / 16 rec', after: (db, n) => n % 16 === 0 && cmd(db, 'merge', 8) },
  { name: 'merge 16 / 32 rec', after: (db, n) => n % 32 === 0 && cmd(db, 'merge', 16) },
  { name: 'merge -8 / 16 rec', after: (db, n) => n % 16 === 0 && cmd(db, 'merge', -8) },
  { name: 'merge -16 / 32 rec', after: (db, n) => n % 32 === 0 && cmd(db, 'merge', -16) },
  { name: 'automerge 2, crisismerge 4', setup: ["INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('automerge', 2)", "INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('crisismerge', 4)"] },
  { name: 'full merge at +50 %, 32 / rec', after: geometric(0.5, 32) },
  { name: 'full merge at +25 %, 32 / rec', after: geometric(0.25, 32) },
  { name: 'full merge at +10 %, 32 / rec', after: geometric(0.1, 32) },
  { name: 'automerge 4, optimize at end', end: 'optimize' },
];
const POLICIES = ALL.filter((p) => !values.only || values.only.split(',').some((o) => p.name.startsWith(o)));

const segments = (db: Database.Database) => (db.prepare('SELECT count(DISTINCT segid) AS n FROM episodes_fts_idx').get() as { n: number }).n;
const built = POLICIES.map((p) => {
  const db = new Database(':memory:');
  db.pragma(`page_size = ${WASM_PAGE_SIZE}`);
  db.exec("CREATE VIRTUAL TABLE episodes_fts USING fts5(body, grams, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1)");
  for (const s of p.setup ?? []) db.exec(s);
  const ins = db.prepare(EPISODE_FTS_INSERT);
  const ms: number[] = [];
  rows.forEach((r, i) => {
    const t = cpu();
    db.exec('BEGIN');
    ins.run(r.rid, ...r.cols);
    p.after?.(db, i + 1);
    db.exec('COMMIT');
    ms.push(cpu() - t);
  });
  if (p.end) cmd(db, p.end);
  return { p, db, ms, segs: segments(db), rank: db.prepare(`SELECT rowid AS rid, bm25(episodes_fts, 1.0, 0.5) AS r FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`) };
});
const q = built.map(() => 0);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const m of matches) {
    built.forEach((b, i) => {
      const t = cpu();
      b.rank.all(m);
      q[i]! += cpu() - t;
    });
  }
}
const n = matches.length * Number(values.rounds);
console.log(`${rows.length} text rows, ${matches.length} queries × ${values.rounds} rounds; CPU ms`);
console.log(`${'policy'.padEnd(34)} ${'insert p50'.padStart(10)} ${'p95'.padStart(6)} ${'max'.padStart(6)} ${'total'.padStart(7)} ${'segs'.padStart(5)} ${'query'.padStart(6)} ${'>2ms'.padStart(5)} ${'>5ms'.padStart(5)}`);
built.forEach((b, i) => {
  const total = b.ms.reduce((s, x) => s + x, 0);
  console.log(`${b.p.name.padEnd(34)} ${pct(b.ms, 50).toFixed(3).padStart(10)} ${pct(b.ms, 95).toFixed(3).padStart(6)} ${Math.max(...b.ms).toFixed(1).padStart(6)} ${total.toFixed(0).padStart(7)} ${String(b.segs).padStart(5)} ${(q[i]! / n).toFixed(2).padStart(6)} ${String(b.ms.filter((x) => x > 2).length).padStart(5)} ${String(b.ms.filter((x) => x > 5).length).padStart(5)}`);
});
