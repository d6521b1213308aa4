/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): where episode.query's ranking statement spends its
 * time at 10,000 episodes, and what the ways of making it follow the window instead of the index would cost, on
 * native SQLite (better-sqlite3), CPU time per query, every variant timed alternately in the same process.
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-rank-probe.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 *
 * Rows:
 *   ranking     the statement episode recall runs (store/episode-recall-query.ts): bm25 over the newest 500 matches
 *   window      the same walk without bm25 (what a window-cost ranking could not go below)
 *   idf pass    one count(*) per query phrase: the document counts FTS5's bm25 gathers over the whole index
 *   docsize     reading the window rows' token counts (episodes_fts_docsize), one statement per row
 *   re-tokenize rebuilding the window rows' indexed columns in JS (episodeFtsColumns), on the first 10 queries
 *   scored-rare bm25 over only the phrases in under θ of the documents (cached counts), restricted to the window:
 *               cost and top-5/top-10 overlap with the ranking row
 * and the ranking statement again on a copy of the database after FTS5 'optimize' (one segment per level).
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recallMatch } from '../../src/lib/engine/episodes/recall';
import { RANK_WINDOW } from '../../src/lib/engine/store/episode-recall-query';
import { episodeFtsColumns } from '../../src/lib/engine/store/fts-columns';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');
const bytes = readFileSync(values.db);
const db = new Database(bytes);
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: { text: string } }[]).map((q) => q.input.text);

/** The query's phrases, each with its column filter, as FTS5 counts them for bm25. */
function phrasesOf(match: string): string[] {
  const out: string[] = [];
  for (const group of match.matchAll(/\((?:"body"|grams) : \(([^)]*)\)\)/gu)) {
    const column = group[0].startsWith('("body"') ? 'body' : 'grams';
    for (const p of group[1]?.match(/"(?:[^"]|"")*"/gu) ?? []) out.push(`${column} : ${p}`);
  }
  return out;
}
const queries = inputs.map((text) => recallMatch(text).match).filter((m): m is string => m !== null).map((match) => ({ match, phrases: phrasesOf(match) }));

const RANK = `SELECT rowid AS rid, bm25(episodes_fts, 1.0, 0.5) AS r FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`;
const ranking = db.prepare<[string], { rid: number; r: number }>(RANK);
const window = db.prepare<[string], { rid: number }>(`SELECT rowid AS rid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`);
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH ?');
const docsize = db.prepare<[number], { sz: Buffer }>('SELECT sz FROM episodes_fts_docsize WHERE id = ?');
const scored = db.prepare<[string, number], { rid: number; r: number }>('SELECT rowid AS rid, bm25(episodes_fts, 1.0, 0.5) AS r FROM episodes_fts WHERE episodes_fts MATCH ? AND rowid >= ?');
const rowText = db.prepare<[number], { input_summary: string; candidates: string; selected_index: number; final_text: string | null }>(
  'SELECT input_summary, candidates, selected_index, final_text FROM episodes WHERE rid = ?',
);
const optimized = new Database(bytes);
optimized.exec("INSERT INTO episodes_fts(episodes_fts) VALUES('optimize')");
const rankingOptimized = optimized.prepare<[string], { rid: number; r: number }>(RANK);

const cpu = <T>(f: () => T): [number, T] => {
  const t = process.cpuUsage();
  const out = f();
  const d = process.cpuUsage(t);
  return [(d.user + d.system) / 1000, out];
};
const df = new Map<string, number>();
const N = (db.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n;
for (const q of queries) for (const p of q.phrases) if (!df.has(p)) df.set(p, (count.get(p)?.n ?? 0) / Math.max(1, N));
const top = (rows: { rid: number; r: number }[], k: number) => [...rows].sort((a, b) => a.r - b.r || b.rid - a.rid).slice(0, k).map((x) => x.rid);
const THETAS = [0.3, 0.2, 0.1];

const rounds = Number(values.rounds);
const sum: Record<string, number> = {};
const add = (k: string, v: number) => (sum[k] = (sum[k] ?? 0) + v);
const overlap: Record<string, [number, number, number, number]> = {};
for (let round = 0; round < rounds; round++) {
  queries.forEach((q, qi) => {
    const [a, exact] = cpu(() => ranking.all(q.match));
    add('ranking', a);
    add('ranking after optimize', cpu(() => rankingOptimized.all(q.match))[0]);
    const [w, win] = cpu(() => window.all(q.match));
    add('window (no bm25)', w);
    add('idf pass (count per phrase)', cpu(() => q.phrases.forEach((p) => count.get(p)))[0]);
    add('docsize per window row', cpu(() => win.forEach((r) => docsize.get(r.rid)))[0]);
    if (qi < 10) {
      add('re-tokenize window rows (10 queries)', cpu(() => win.forEach((r) => {
        const e = rowText.get(r.rid);
        if (!e) return;
        const kept = e.final_text ?? (JSON.parse(e.candidates) as string[])[e.selected_index] ?? '';
        episodeFtsColumns({ inputSummary: e.input_summary, keptText: kept });
      }))[0] * (queries.length / 10));
    }
    const min = win.at(-1)?.rid ?? 0;
    for (const theta of THETAS) {
      const rare = q.phrases.filter((p) => (df.get(p) ?? 0) < theta);
      const [s, approx] = cpu(() => {
        const w2 = window.all(q.match);
        const scores = new Map<number, number>();
        if (rare.length) for (const r of scored.all(rare.map((p) => `(${p})`).join(' OR '), min)) scores.set(r.rid, r.r);
        return w2.map((r) => ({ rid: r.rid, r: scores.get(r.rid) ?? 0 }));
      });
      const k = `scored-rare θ=${theta}`;
      add(k, s);
      const o = (overlap[k] ??= [0, 0, 0, 0]);
      const e5 = top(exact, 5), e10 = top(exact, 10), a5 = top(approx, 5), a10 = top(approx, 10);
      o[0] += a5.filter((x) => e5.includes(x)).length;
      o[1] += e5.length;
      o[2] += a10.filter((x) => e10.includes(x)).length;
      o[3] += e10.length;
    }
  });
}
const n = queries.length * rounds;
const phrases = queries.reduce((s, q) => s + q.phrases.length, 0) / queries.length;
console.log(`${queries.length} queries × ${rounds} rounds, ${N} episodes, ${phrases.toFixed(1)} phrases per query; CPU ms per query:`);
for (const [k, v] of Object.entries(sum)) {
  const o = overlap[k];
  console.log(`  ${k.padEnd(40)} ${(v / n).toFixed(2)}${o ? `   top-5 ${((o[0] / Math.max(1, o[1])) * 100).toFixed(1)} %, top-10 ${((o[2] / Math.max(1, o[3])) * 100).toFixed(1)} %` : ''}`);
}
