/**
 * Where turn recall's time goes as the history grows (issue 16, "a million turns"), on native stores the bench's own
 * fill wrote (speed/native.ts, e.g. `filledSnapshot`): recall.search through the engine on better-sqlite3, every
 * statement timed per query kind, the stores side by side in one run (query by query, alternating), so a ratio
 * between sizes is measured under one load.
 *
 *   npx tsx bench/speed/recall-scale-probe.ts --db small.sqlite --db large.sqlite [--per-kind 25] [--rounds 3]
 *        [--recent 100000] [--part-size 100000 --part-phase 50000 --parts 2] [--detail-column] [--store 300]
 *        [--fill 100000,1000000] [--out /tmp/probe.json]
 *
 * `--fill`: the turns of each `--db` in order; a file that does not exist yet is made first by the bench's own fill
 * (`filledSnapshot`, seed 42; the corpus is prefix-stable, so the smaller store is the larger one's first turns).
 *
 * Besides the engine as it is ('full'), it measures prototypes of a bounded index without changing the app: the
 * driver handed to the engine rewrites the two ranked statements of a windowed lane (turn-index.ts `ranked` and
 * the first statement of `sessionDocuments`, both `rowid >= from`) to another FTS5 table when that table covers
 * the window:
 *   recent  `recent_fts`, the newest `--recent` turns in a table of messages_fts's definition (built once per file)
 *   parts   time partitions: turns (k·size + phase, (k+1)·size + phase] each in a table `part_fts_k`; the newest
 *           `--parts` are built; a windowed statement runs in every partition its window reaches and the rows are
 *           merged (ranked: by each partition's own bm25, the best `limit`); a window older than them falls back
 *   column  `column_fts`, every turn in a table of the same columns with `detail = column` (`--detail-column`)
 * and replays each windowed `ranked` call in variants that say what the statement's time is made of (bm25 vs
 * rowid order, a 1,000- vs a 100,000-rowid window, counting the terms' whole doclists). The prototype tables are
 * written into the files given (a probe's copies, not a user's database).
 *
 * `--store N`: what each layout costs a stored turn's full-text row, after the recalls: N single-row transactions per
 * layout, alternating, with the bench's timed durability (rollback journal, synchronous = FULL), new rowids past the
 * last turn with the text of existing turns — full: messages_fts; recent: messages_fts + recent_fts and the row that
 * ages out of recent_fts deleted; parts: the newest partition only. The rows are deleted again afterwards.
 */
import Database from 'better-sqlite3';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { randomId, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import type { RecallResponse } from '../../src/lib/domain/recall/types';
import { createCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import type { SqlDriver, SqlParam, SqlParams } from '../../src/lib/engine/store/driver';
import { MESSAGE_BM25, MESSAGE_FTS_INSERT, messageFtsColumns } from '../../src/lib/engine/store/fts-columns';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { generateQueries } from '../lib/corpus';
import { percentile } from '../lib/stats';
import { filledSnapshot } from './native';

const argv = process.argv.slice(2);
const many = (name: string) => argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1] ? [argv[i + 1] as string] : []));
const one = (name: string, fallback: string) => many(name)[0] ?? fallback;
const paths = many('db');
if (paths.length === 0) throw new Error('usage: recall-scale-probe.ts --db a.sqlite [--db b.sqlite …]');
const perKind = Number(one('per-kind', '25'));
const rounds = Number(one('rounds', '3'));
const recentN = Number(one('recent', '100000'));
const partSize = Number(one('part-size', '100000'));
const partPhase = Number(one('part-phase', '50000'));
const partsBuilt = Number(one('parts', '2'));
const detailColumn = argv.includes('--detail-column');
const storeN = Number(one('store', '0'));
const outPath = one('out', '');

const MODES = ['full', 'recent', 'parts', ...(detailColumn ? ['column'] : [])] as const;
type Mode = (typeof MODES)[number];
/** The windowed statements a prototype serves (turn-index.ts `ranked`, `sessionDocuments`' user-turn statement). */
const WINDOWED = ['messages_fts MATCH ? AND rowid >= ?', 'messages_fts MATCH ? AND messages_fts.rowid >= ?'];
const LIMIT = 5;
const FTS_DEF = (name: string, detail: string) =>
  `CREATE VIRTUAL TABLE ${name} USING fts5(body, extra, symbols, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1${detail})`;

/** The statement's parameters when given by position (turn-index.ts passes them so). */
const positional = (p: SqlParams | undefined): readonly SqlParam[] | null => (Array.isArray(p) ? (p as readonly SqlParam[]) : null);
const ms = (f: () => unknown) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const median = (xs: readonly number[]) => percentile(xs, 50);
const r2 = (x: number) => Math.round(x * 100) / 100;

/** The FTS5 table's own bytes (dbstat: its shadow tables), or null where dbstat is not compiled in. */
function ftsBytes(db: Database.Database, name: string): number | null {
  try {
    return (db.prepare(`SELECT SUM(pgsize) AS b FROM dbstat WHERE name LIKE ?`).get(`${name}_%`) as { b: number }).b;
  } catch {
    return null;
  }
}

/** Builds `name` from the messages with id > from, unless it already holds exactly those (kept in the file). */
function ensureTable(db: Database.Database, name: string, detail: string, from: number, to = Number.MAX_SAFE_INTEGER): { buildMs: number | null; bytes: number | null; rows: number } {
  const rows = (db.prepare('SELECT count(*) AS n FROM messages WHERE id > ? AND id <= ?').get(from, to) as { n: number }).n;
  const have = db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(name) as { sql: string } | undefined;
  const marker = `${name}_probe_from`;
  db.exec('CREATE TABLE IF NOT EXISTS probe_meta (key TEXT PRIMARY KEY, value INTEGER)');
  const was = db.prepare('SELECT value FROM probe_meta WHERE key = ?').get(marker) as { value: string } | undefined;
  const range = `${from}..${to}`;
  if (have && was?.value === range) return { buildMs: null, bytes: ftsBytes(db, name), rows };
  if (have) db.exec(`DROP TABLE ${name}`);
  // In pages: better-sqlite3 cannot write while a read is open on the connection.
  const read = db.prepare('SELECT id, content, symbols FROM messages WHERE id > ? AND id <= ? ORDER BY id LIMIT 5000');
  const buildMs = ms(() =>
    db.transaction(() => {
      db.exec(FTS_DEF(name, detail));
      const insert = db.prepare(MESSAGE_FTS_INSERT.replace('messages_fts', name));
      for (let page = read.all(from, to) as { id: number; content: string; symbols: string }[]; page.length; page = read.all(page.at(-1)!.id, to) as typeof page)
        for (const m of page) {
          const symbols = (JSON.parse(m.symbols) as unknown[]).map(String);
          insert.run(m.id, ...messageFtsColumns({ content: m.content, symbols }));
        }
      db.prepare('INSERT OR REPLACE INTO probe_meta (key, value) VALUES (?, ?)').run(marker, range);
    })(),
  );
  return { buildMs: Math.round(buildMs), bytes: ftsBytes(db, name), rows };
}

interface Store {
  path: string;
  db: Database.Database;
  maxId: number;
  /** The lowest rowid the recent table holds. */
  recentLow: number;
  /** The built partitions, newest first: rowids in (lo, hi]. */
  parts: { name: string; lo: number; hi: number }[];
  tables: Record<string, { buildMs: number | null; bytes: number | null; rows: number }>;
  call: (query: string) => Promise<RecallResponse>;
  mode: Mode;
  kind: string;
  /** mode → kind → statement → ms of each call. */
  statements: Map<string, number[]>;
  /** `ranked` calls of a windowed lane (from > 0), for the replays. */
  windowed: Map<string, { match: string; from: number }>;
  /** How often each prototype table served a windowed statement, and how often it could not (window too old). */
  served: Record<string, { served: number; fellBack: number }>;
}

function open(path: string): Store {
  const db = new Database(path);
  // The browser's pragmas (store/open-wasm.ts tune()).
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY;');
  const maxId = (db.prepare('SELECT MAX(id) AS n FROM messages').get() as { n: number }).n;
  const recentLow = Math.max(0, maxId - recentN);
  const tables: Store['tables'] = { recent_fts: ensureTable(db, 'recent_fts', '', recentLow) };
  // The newest partsBuilt partitions (k·size + phase, (k+1)·size + phase], newest first.
  const newestPart = Math.ceil((maxId - partPhase) / partSize) - 1;
  const parts = Array.from({ length: partsBuilt }, (_, i) => newestPart - i)
    .map((k) => ({ name: `part_fts_${k < 0 ? `m${-k}` : k}`, lo: Math.max(0, k * partSize + partPhase), hi: (k + 1) * partSize + partPhase }))
    .filter((p) => p.hi > 0);
  for (const p of parts) tables[p.name] = ensureTable(db, p.name, '', p.lo, p.hi);
  if (detailColumn) tables.column_fts = ensureTable(db, 'column_fts', ", detail = 'column'", 0);
  const base = createBetterSqlite3Driver(db);
  const store = { path, db, maxId, recentLow, parts, tables, mode: 'full', kind: '', statements: new Map(), windowed: new Map(), served: {} } as unknown as Store;
  const note = (sql: string, t: number) => {
    const key = `${store.mode}\t${store.kind}\t${sql.replace(/\s+/g, ' ').slice(0, 80)}`;
    const list = store.statements.get(key) ?? [];
    list.push(t);
    store.statements.set(key, list);
  };
  /** The statement the current mode runs: a windowed ranked statement moves to the prototype table covering it. */
  const route = (sql: string, params: SqlParams | undefined): string => {
    const p = positional(params);
    if (!WINDOWED.some((w) => sql.includes(w)) || !p) return sql;
    const from = Number(p[1]);
    if (store.mode === 'full') {
      if (from > 0 && sql.includes('ORDER BY s LIMIT')) store.windowed.set(`${p[0]}\t${from}`, { match: String(p[0]), from });
      return sql;
    }
    if (store.mode !== 'recent' && store.mode !== 'column') return sql; // parts: served by partitioned() or fallen back
    const table = store.mode === 'recent' ? 'recent_fts' : 'column_fts';
    const s = (store.served[store.mode] ??= { served: 0, fellBack: 0 });
    if (store.mode === 'recent' && from < recentLow) {
      s.fellBack++;
      return sql;
    }
    s.served++;
    return sql.replaceAll('messages_fts', table);
  };
  /** parts mode: a windowed statement run in each partition its window reaches, the rows merged; null: not served. */
  const partitioned = <T>(sql: string, params: SqlParams | undefined): T[] | null => {
    const p = positional(params);
    if (store.mode !== 'parts' || !p || !WINDOWED.some((w) => sql.includes(w))) return null;
    const from = Number(p[1]);
    const s = (store.served.parts ??= { served: 0, fellBack: 0 });
    const oldest = parts.at(-1);
    if (!oldest || from <= oldest.lo) {
      s.fellBack++;
      return null;
    }
    s.served++;
    const rows = parts.filter((x) => x.hi >= from).flatMap((x) => base.all<T>(sql.replaceAll('messages_fts', x.name), p));
    if (!sql.includes('ORDER BY s LIMIT')) return rows;
    return (rows as (T & { s: number })[]).sort((a, b) => a.s - b.s).slice(0, Number(p[2]));
  };
  const timed = <T>(sql: string, f: () => T): T => {
    const t0 = performance.now();
    try {
      return f();
    } finally {
      note(sql, performance.now() - t0);
    }
  };
  const driver: SqlDriver = {
    kind: base.kind,
    exec: (sql) => timed(sql, () => base.exec(sql)),
    run: (sql, p) => timed(sql, () => base.run(route(sql, p), p)),
    all: (sql, p) => timed(sql, () => partitioned(sql, p) ?? base.all(route(sql, p), p)),
    get: (sql, p) => timed(sql, () => base.get(route(sql, p), p)),
    transaction: (fn) => base.transaction(fn),
    close: () => base.close(),
  };
  const engine = createEngine(
    { driver, clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'recall scale probe' }, startedAt: Date.now() },
    loadMigrationsFromDisk(),
  );
  const caller = createCaller({ call: (req) => engine.handle(req) });
  store.call = async (query) => {
    const res = await caller.call('recall.search', { query, limit: LIMIT });
    if (!res.ok) throw new Error(`recall.search: ${res.error.code}`);
    return res.data as RecallResponse;
  };
  return store;
}

const fillTurns = one('fill', '').split(',').filter(Boolean).map(Number);
for (const [i, turns] of fillTurns.entries()) {
  const path = paths[i];
  if (path) await filledSnapshot(path, turns);
}

const loadBefore = loadavg()[0];
const stores = paths.map(open);
const queries = generateQueries({ seed: 42, perKind });
const recallMs = new Map<string, number[]>(); // `${store}\t${mode}\t${kind}` → ms
/** Top-LIMIT result sets per store, mode and query (round 0): how the prototype changes what recall returns. */
const tops = new Map<string, string>();
const topKey = (r: RecallResponse) => r.results.map((h) => h.turnId ?? `s:${h.conversationId}`).join(',');

// Warm-up: each store's pages once through every mode (not recorded).
for (const s of stores)
  for (const mode of MODES) {
    s.mode = mode;
    for (const q of queries) await s.call(q.text);
  }
for (const s of stores) s.statements.clear();

for (let round = 0; round < rounds; round++) {
  for (const [i, q] of queries.entries()) {
    // Every store and every mode per query, in an order that turns round by round (A/B/C, then B/C/A, …).
    const pairs = stores.flatMap((s, si) => MODES.map((mode) => ({ s, si, mode })));
    const shift = (round + i) % pairs.length;
    for (const { s, si, mode } of [...pairs.slice(shift), ...pairs.slice(0, shift)]) {
      s.mode = mode;
      s.kind = q.kind;
      const t0 = performance.now();
      const res = await s.call(q.text);
      const t = performance.now() - t0;
      for (const key of [`${si}\t${mode}\t${q.kind}`, `${si}\t${mode}\tall`]) recallMs.set(key, [...(recallMs.get(key) ?? []), t]);
      if (round === 0) tops.set(`${si}\t${mode}\t${i}`, topKey(res));
    }
  }
}

/** Each windowed ranked call replayed (median of 5): what its time is made of. */
function replays(s: Store) {
  const bm25 = MESSAGE_BM25;
  // The captured match is the statement's parameter: already messageTextMatch's column filter.
  const text = (m: string) => m;
  const variants: Record<string, { sql: string; args: (m: string, from: number) => unknown[] }> = {
    asIs: { sql: `SELECT rowid, ${bm25} AS s FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT 100`, args: (m, f) => [text(m), f] },
    rowidOrder: { sql: 'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rowid DESC LIMIT 100', args: (m, f) => [text(m), f] },
    bm25Window1k: { sql: `SELECT rowid, ${bm25} AS s FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT 100`, args: (m) => [text(m), s.maxId - 1000] },
    bm25Window100k: { sql: `SELECT rowid, ${bm25} AS s FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT 100`, args: (m) => [text(m), Math.max(0, s.maxId - 100_000)] },
    countWindow: { sql: 'SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ?', args: (m, f) => [text(m), f] },
    countAll: { sql: 'SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?', args: (m) => [text(m)] },
    recentAsIs: {
      sql: `SELECT rowid, ${bm25.replace('messages_fts', 'recent_fts')} AS s FROM recent_fts WHERE recent_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT 100`,
      args: (m, f) => [text(m), Math.max(f, s.recentLow)],
    },
  };
  if (detailColumn)
    variants.columnAsIs = {
      sql: `SELECT rowid, ${bm25.replace('messages_fts', 'column_fts')} AS s FROM column_fts WHERE column_fts MATCH ? AND rowid >= ? ORDER BY s LIMIT 100`,
      args: (m, f) => [text(m), f],
    };
  const out: Record<string, number[]> = {};
  const matchesAll: number[] = [];
  const matchesWindow: number[] = [];
  for (const { match, from } of s.windowed.values()) {
    matchesAll.push((s.db.prepare(variants.countAll!.sql).pluck().get(text(match)) as number));
    matchesWindow.push((s.db.prepare(variants.countWindow!.sql).pluck().get(text(match), from) as number));
    for (const [name, v] of Object.entries(variants)) {
      const stmt = s.db.prepare(v.sql);
      const args = v.args(match, from);
      const times = Array.from({ length: 5 }, () => ms(() => stmt.all(...args)));
      (out[name] ??= []).push(median(times));
    }
  }
  const summary = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { median: r2(median(v)), p95: r2(percentile(v, 95)) }]));
  return { calls: s.windowed.size, matchesAll: { median: median(matchesAll), p95: percentile(matchesAll, 95) }, matchesWindow: { median: median(matchesWindow) }, ms: summary };
}

/** `--store`: ms of one committed full-text write per layout (see the header), alternating. */
function storeCost(s: Store): Record<string, { p50: number; p95: number }> | null {
  if (storeN <= 0) return null;
  const { db } = s;
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = FULL');
  const texts = db.prepare('SELECT id, content, symbols FROM messages WHERE id > ? ORDER BY id LIMIT ?').all(s.maxId - storeN, storeN) as { id: number; content: string; symbols: string }[];
  const ins = (t: string) => db.prepare(MESSAGE_FTS_INSERT.replace('messages_fts', t));
  const del = (t: string) => db.prepare(`DELETE FROM ${t} WHERE rowid = ?`);
  const newest = s.parts[0]?.name ?? 'messages_fts';
  const layouts: Record<string, (id: number, cols: [string, string, string]) => void> = {
    full: (id, cols) => ins('messages_fts').run(id, ...cols),
    recent: (id, cols) => {
      ins('messages_fts').run(id, ...cols);
      ins('recent_fts').run(id, ...cols);
      del('recent_fts').run(id - recentN);
    },
    parts: (id, cols) => ins(newest).run(id, ...cols),
  };
  const times: Record<string, number[]> = {};
  const names = Object.keys(layouts);
  let next = s.maxId + 1;
  const written: number[] = [];
  texts.forEach((t, i) => {
    const cols = messageFtsColumns({ content: t.content, symbols: (JSON.parse(t.symbols) as unknown[]).map(String) });
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length] as string;
      const id = next++;
      written.push(id);
      (times[name] ??= []).push(ms(() => db.transaction(() => layouts[name]!(id, cols))()));
    }
  });
  // Undo: the probe's rows out of every table again (recent_fts gets back the rows it aged out at the next build).
  db.pragma('synchronous = OFF');
  db.transaction(() => {
    for (const id of written) for (const t of ['messages_fts', 'recent_fts', newest]) del(t).run(id);
  })();
  db.prepare("DELETE FROM probe_meta WHERE key = 'recent_fts_probe_from'").run();
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { p50: r2(percentile(v, 50)), p95: r2(percentile(v, 95)) }]));
}

const result = {
  command: `npx tsx bench/speed/recall-scale-probe.ts ${argv.join(' ')}`,
  load: { before: loadBefore, after: loadavg()[0] },
  queries: queries.length,
  rounds,
  stores: stores.map((s, si) => {
    const recall: Record<string, Record<string, { p50: number; p95: number }>> = {};
    for (const [key, v] of recallMs) {
      const [i, mode, kind] = key.split('\t') as [string, Mode, string];
      if (Number(i) !== si) continue;
      (recall[mode] ??= {})[kind] = { p50: r2(percentile(v, 50)), p95: r2(percentile(v, 95)) };
    }
    // Per statement: ms per recall (total ÷ recalls of that kind) and p95 of one call, per mode and kind.
    const statements: { mode: string; kind: string; sql: string; calls: number; msPerRecall: number; p95: number }[] = [];
    for (const [key, v] of s.statements) {
      const [mode, kind, sql] = key.split('\t') as [string, string, string];
      const recalls = (recallMs.get(`${si}\t${mode}\t${kind}`) ?? []).length || 1;
      statements.push({ mode, kind, sql, calls: v.length, msPerRecall: r2(v.reduce((a, b) => a + b, 0) / recalls), p95: r2(percentile(v, 95)) });
    }
    statements.sort((a, b) => b.msPerRecall - a.msPerRecall);
    const sameTop = (mode: Mode) =>
      queries.filter((_, i) => tops.get(`${si}\t${mode}\t${i}`) === tops.get(`${si}\tfull\t${i}`)).length;
    return {
      path: s.path,
      turns: s.maxId,
      recentLow: s.recentLow,
      tables: s.tables,
      messagesFtsBytes: ftsBytes(s.db, 'messages_fts'),
      served: s.served,
      sameTop5AsFull: Object.fromEntries(MODES.filter((m) => m !== 'full').map((m) => [m, `${sameTop(m)}/${queries.length}`])),
      recall,
      statements: statements.filter((x) => x.msPerRecall >= 0.05),
      replays: replays(s),
      storeMs: storeCost(s),
    };
  }),
};
for (const s of stores) s.db.close();
const text = JSON.stringify(result, null, 2);
if (outPath) writeFileSync(outPath, text);
// The headline: recall p95 per mode and kind at each size, and the largest ÷ the smallest.
for (const mode of MODES) {
  const rows = result.stores.map((s) => s.recall[mode]?.all);
  const ratio = rows.length > 1 ? (rows.at(-1)!.p95 / rows[0]!.p95).toFixed(2) : '-';
  console.log(`${mode.padEnd(7)} p95 ${rows.map((r) => r?.p95).join(' / ')} ms  (last ÷ first ${ratio})`);
}
console.log(outPath ? `→ ${outPath}` : text);
