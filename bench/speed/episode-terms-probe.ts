/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): would storing each episode's indexed-term counts
 * when it is written (a derived `episode_terms` row) make episode.query's ranking cheap enough? Builds the counts for
 * every episode of a kept database exactly as FTS5 tokenises them (the episode's indexed columns, episodeFtsColumns,
 * put through a temporary FTS5 table with the same tokenizer and read back with fts5vocab 'instance'), then times,
 * alternately in one process, CPU ms per query:
 *
 *   ranking          the statement episode recall runs today (bm25 over the newest 500 matches)
 *   window           the same walk without bm25
 *   window+counts    the walk joined to each window row's stored counts (one ' key:n … ' text per episode), BM25 in JS
 *   window+postings  the counts stored as postings (token, episode) → n in a WITHOUT ROWID table: the walk with each
 *                    row's token total (FTS5's docsize), the query's tokens' postings from the window's lowest rid on,
 *                    BM25 in JS
 *   window+sql       the same postings summed into BM25 in one SQL statement
 *
 * All use the query's tokens through the same temporary table and the collection statistics cached (df per phrase
 * counted once, N, average length), i.e. fresh statistics: the same formula, k1 = 1.2, b = 0.75, weights 1.0 / 0.5.
 * Printed: CPU ms per query (mean / p50 / p95), each variant's top-5 / top-10 overlap with the ranking row, the
 * write cost the counts add (tokenising one episode through the temporary table), and the tables' sizes.
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-terms-probe.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recallMatch } from '../../src/lib/engine/episodes/recall';
import { RANK_WINDOW } from '../../src/lib/engine/store/episode-recall-query';
import { episodeFtsColumns } from '../../src/lib/engine/store/fts-columns';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');
const db = new Database(readFileSync(values.db));
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: { text: string } }[]).map((q) => q.input.text);
const cpu = <T>(f: () => T): [number, T] => {
  const t = process.cpuUsage();
  const out = f();
  const d = process.cpuUsage(t);
  return [(d.user + d.system) / 1000, out];
};

// The tokenizer FTS5 uses for episodes_fts, reachable from SQL: a one-row temporary index read back per instance.
db.exec(`CREATE VIRTUAL TABLE temp.tok USING fts5(body, grams, tokenize = 'porter unicode61 remove_diacritics 2');
         CREATE VIRTUAL TABLE temp.tokv USING fts5vocab('temp', 'tok', 'instance');`);
const tokIns = db.prepare('INSERT INTO temp.tok (rowid, body, grams) VALUES (1, ?, ?)');
const tokRead = db.prepare<[], { term: string; col: string; n: number }>('SELECT term, col, count(*) AS n FROM temp.tokv GROUP BY term, col');
const tokDel = db.prepare('DELETE FROM temp.tok');
/** 'b' + token / 'g' + token → count, and the row's token total (what FTS5's docsize holds). */
function tokenize(body: string, grams: string): { counts: Record<string, number>; len: number } {
  tokIns.run(body, grams);
  const counts: Record<string, number> = {};
  let len = 0;
  for (const r of tokRead.all()) {
    counts[(r.col === 'body' ? 'b' : 'g') + r.term] = r.n;
    len += r.n;
  }
  tokDel.run();
  return { counts, len };
}

db.exec('CREATE TABLE episode_terms (rid INTEGER PRIMARY KEY, counts TEXT NOT NULL, len INTEGER NOT NULL)');
// The same counts as postings: one row per (token, episode), so a query reads only its own tokens' rows in the window.
db.exec('CREATE TABLE episode_postings (key TEXT NOT NULL, rid INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (key, rid)) WITHOUT ROWID');
const post = db.prepare('INSERT INTO episode_postings (key, rid, n) VALUES (?, ?, ?)');
const rows = db.prepare<[], { rid: number; input_summary: string; candidates: string; selected_index: number; final_text: string | null; compressed: number }>(
  'SELECT rid, input_summary, candidates, selected_index, final_text, compressed FROM episodes',
).all();
const put = db.prepare('INSERT INTO episode_terms (rid, counts, len) VALUES (?, ?, ?)');
let columnsMs = 0;
let tokMs = 0;
for (const e of rows) {
  const kept = e.final_text ?? (JSON.parse(e.candidates) as string[])[e.selected_index] ?? '';
  const [c, cols] = cpu(() => episodeFtsColumns({ inputSummary: e.input_summary, keptText: kept }));
  columnsMs += c;
  const [t, tk] = cpu(() => tokenize(cols[0], cols[1]));
  tokMs += t;
  // ' key:n key:n ' — FTS5's unicode61 tokens hold neither spaces nor ':', so a key is found with one indexOf.
  for (const [k, n] of Object.entries(tk.counts)) post.run(k, e.rid, n);
  put.run(e.rid, ` ${Object.entries(tk.counts).map(([k, n]) => `${k}:${n}`).join(' ')} `, tk.len);
}
console.log(`write cost per episode (CPU ms): indexed columns ${(columnsMs / rows.length).toFixed(3)} (already paid today), tokenising for the counts ${(tokMs / rows.length).toFixed(3)}`);

/** The query's phrases with their column, as written in the MATCH. */
function phrasesOf(match: string): { col: 'b' | 'g'; text: string; fts: string }[] {
  const out: { col: 'b' | 'g'; text: string; fts: string }[] = [];
  for (const group of match.matchAll(/\((?:"body"|grams) : \(([^)]*)\)\)/gu)) {
    const col = group[0].startsWith('("body"') ? 'b' : 'g';
    for (const p of group[1]?.match(/"(?:[^"]|"")*"/gu) ?? []) out.push({ col, text: p.slice(1, -1).replaceAll('""', '"'), fts: `${col === 'b' ? 'body' : 'grams'} : ${p}` });
  }
  return out;
}
const queries = inputs.map((text) => recallMatch(text).match).filter((m): m is string => m !== null).map((match) => ({ match, phrases: phrasesOf(match) }));

const ranking = db.prepare<[string], { rid: number; r: number }>(
  `SELECT rowid AS rid, bm25(episodes_fts, 1.0, 0.5) AS r FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`,
);
const windowCounts = db.prepare<[string], { rid: number; counts: string; len: number }>(
  `SELECT m.rid, t.counts, t.len FROM (SELECT rowid AS rid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}) m
   CROSS JOIN episode_terms t ON t.rid = m.rid`,
);
const window = db.prepare<[string], { rid: number }>(`SELECT rowid AS rid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}`);
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH ?');

// Collection statistics, cached (what a connection would hold between refreshes).
const N = (db.prepare('SELECT count(*) AS n FROM episode_terms').get() as { n: number }).n;
const avgdl = (db.prepare('SELECT avg(len) AS a FROM episode_terms').get() as { a: number }).a;
const df = new Map<string, number>();
let dfMs = 0;
for (const q of queries) for (const p of q.phrases) if (!df.has(p.fts)) dfMs += cpu(() => df.set(p.fts, count.get(p.fts)?.n ?? 0))[0];
const K1 = 1.2;
const B = 0.75;
const WEIGHT = { b: 1.0, g: 0.5 } as const;
const idf = (n: number) => Math.max(1e-6, Math.log((N - n + 0.5) / (n + 0.5)));

/** The phrase's token keys ('b'/'g' + token) through the same tokenizer; a phrase of several tokens counts as its rarest. */
function phraseKeys(phrases: { col: 'b' | 'g'; text: string }[]): string[][] {
  return phrases.map((p) => {
    tokIns.run(p.col === 'b' ? p.text : '', p.col === 'g' ? p.text : '');
    const keys = tokRead.all().map((r) => p.col + r.term);
    tokDel.run();
    if (keys.length > 1) multi++;
    return keys;
  });
}
let multi = 0;
let keysMs = 0;
function rankInJs(q: (typeof queries)[number]): { rid: number; r: number }[] {
  const [km, keys] = cpu(() => phraseKeys(q.phrases));
  keysMs += km;
  const idfs = q.phrases.map((p) => idf(df.get(p.fts) ?? 0));
  return windowCounts.all(q.match).map((row) => {
    const counts = row.counts;
    const tf = (k: string): number => {
      const at = counts.indexOf(` ${k}:`);
      return at < 0 ? 0 : parseInt(counts.slice(at + k.length + 2, counts.indexOf(' ', at + k.length + 2)), 10);
    };
    let s = 0;
    const norm = K1 * (1 - B + (B * row.len) / avgdl);
    keys.forEach((ks, i) => {
      const f0 = ks.length ? Math.min(...ks.map(tf)) : 0;
      const f = f0 * WEIGHT[q.phrases[i]!.col];
      if (f > 0) s += (idfs[i]! * (f * (K1 + 1))) / (f + norm);
    });
    return { rid: row.rid, r: -s };
  });
}

// Every phrase of the query tokenised in one statement (rowid = the phrase's place).
const tokMany = db.prepare(`INSERT INTO temp.tok (rowid, body, grams)
  SELECT key + 1, CASE WHEN substr(value, 1, 1) = 'b' THEN substr(value, 2) ELSE '' END, CASE WHEN substr(value, 1, 1) = 'g' THEN substr(value, 2) ELSE '' END FROM json_each(?)`);
const tokDocs = db.prepare<[], { doc: number; term: string; col: string }>('SELECT doc, term, col FROM temp.tokv');
// The window with each row's token count from FTS5's own docsize row (one SQLite varint per column), one statement.
const windowSizes = db.prepare<[string], { rid: number; sz: Buffer }>(
  `SELECT m.rid, d.sz FROM (SELECT rowid AS rid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}) m
   CROSS JOIN episodes_fts_docsize d ON d.id = m.rid`,
);
function sizeOf(sz: Buffer): number {
  let total = 0;
  let v = 0;
  for (const byte of sz) {
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) {
      total += v;
      v = 0;
    }
  }
  return total;
}
const rawPostings = db.prepare('SELECT key, rid, n FROM episode_postings WHERE key IN (SELECT value FROM json_each(?)) AND rid >= ?').raw();
const parts: Record<string, number> = {};
let postingRows = 0;
const part = <T>(k: string, f: () => T): T => {
  const [ms, out] = cpu(f);
  parts[k] = (parts[k] ?? 0) + ms;
  return out;
};
/** Each phrase's token keys, every phrase tokenised in one statement. */
function queryKeys(q: (typeof queries)[number]): string[][] {
  const keys: string[][] = q.phrases.map(() => []);
  tokMany.run(JSON.stringify(q.phrases.map((p) => p.col + p.text)));
  for (const r of tokDocs.all()) keys[r.doc - 1]!.push((r.col === 'body' ? 'b' : 'g') + r.term);
  tokDel.run();
  return keys;
}
function rankPostings(q: (typeof queries)[number]): { rid: number; r: number }[] {
  const keys = part('p:tokens', () => queryKeys(q));
  const win = part('p:window+sizes', () => windowSizes.all(q.match));
  if (!win.length) return [];
  const min = Math.min(...win.map((r) => r.rid));
  const tf = new Map<string, Map<number, number>>();
  const rowsP = part('p:postings', () => rawPostings.all(JSON.stringify([...new Set(keys.flat())]), min) as [string, number, number][]);
  postingRows += rowsP.length;
  part('p:maps', () => {
    for (const [key, rid, n] of rowsP) {
      let m = tf.get(key);
      if (!m) tf.set(key, (m = new Map()));
      m.set(rid, n);
    }
  });
  const idfs = q.phrases.map((p) => idf(df.get(p.fts) ?? 0));
  return win.map(({ rid, sz }) => {
    const norm = K1 * (1 - B + (B * sizeOf(sz)) / avgdl);
    let s = 0;
    for (let i = 0; i < keys.length; i++) {
      const ks = keys[i]!;
      let f0 = ks.length ? Infinity : 0;
      for (const k of ks) f0 = Math.min(f0, tf.get(k)?.get(rid) ?? 0);
      const f = f0 * WEIGHT[q.phrases[i]!.col];
      if (f > 0) s += (idfs[i]! * (f * (K1 + 1))) / (f + norm);
    }
    return { rid, r: -s };
  });
}

// BM25 summed in SQL over the postings of the window's rid range (phrase = its rarest token), lengths from a small
// per-episode table, so only the window's scores cross into JS.
db.exec('CREATE TABLE episode_len (rid INTEGER PRIMARY KEY, len INTEGER NOT NULL); INSERT INTO episode_len SELECT rid, len FROM episode_terms');
const sqlRank = db.prepare(`
  WITH q AS (SELECT json_extract(value, '$[0]') AS phrase, json_extract(value, '$[1]') AS key, json_extract(value, '$[2]') AS idf,
                    json_extract(value, '$[3]') AS w, json_extract(value, '$[4]') AS ntok FROM json_each(?)),
       win AS (SELECT rowid AS rid FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ${RANK_WINDOW}),
       lo AS (SELECT min(rid) AS m FROM win),
       f AS (SELECT p.rid, q.phrase, min(p.n) * q.w AS f, q.idf FROM q CROSS JOIN episode_postings p ON p.key = q.key AND p.rid >= (SELECT m FROM lo)
             GROUP BY p.rid, q.phrase HAVING count(*) = q.ntok)
  SELECT win.rid, -coalesce((SELECT sum(f.idf * f.f * ${K1 + 1} / (f.f + ${K1} * (1 - ${B} + ${B} * l.len / ?))) FROM f WHERE f.rid = win.rid), 0) AS r
  FROM win CROSS JOIN episode_len l ON l.rid = win.rid`);
function rankSql(q: (typeof queries)[number]): { rid: number; r: number }[] {
  const keys = part('s:tokens', () => queryKeys(q));
  const spec = q.phrases.flatMap((p, i) => keys[i]!.map((k) => [i, k, idf(df.get(p.fts) ?? 0), WEIGHT[p.col], keys[i]!.length]));
  return part('s:statement', () => sqlRank.all(JSON.stringify(spec), q.match, avgdl) as { rid: number; r: number }[]);
}

const top = (rows: { rid: number; r: number }[], k: number) => [...rows].sort((a, b) => a.r - b.r || b.rid - a.rid).slice(0, k).map((x) => x.rid);
type Overlap = [shared5: number, of5: number, shared10: number, of10: number];
function addOverlap(acc: Overlap, exact: { rid: number; r: number }[], approx: { rid: number; r: number }[]): void {
  const e5 = top(exact, 5), e10 = top(exact, 10), a5 = top(approx, 5), a10 = top(approx, 10);
  acc[0] += a5.filter((x) => e5.includes(x)).length;
  acc[1] += e5.length;
  acc[2] += a10.filter((x) => e10.includes(x)).length;
  acc[3] += e10.length;
}
const overlapText = (acc: Overlap) => `top-5 ${((acc[0] / Math.max(1, acc[1])) * 100).toFixed(1)} %, top-10 ${((acc[2] / Math.max(1, acc[3])) * 100).toFixed(1)} %`;
const rounds = Number(values.rounds);
const sum: Record<string, number[]> = { ranking: [], window: [], 'window+counts': [], 'window+postings': [], 'window+sql': [] };
const os: Overlap = [0, 0, 0, 0];
const o: Overlap = [0, 0, 0, 0];
const op: Overlap = [0, 0, 0, 0];
for (let round = 0; round < rounds; round++) {
  for (const q of queries) {
    const [a, exact] = cpu(() => ranking.all(q.match));
    sum.ranking!.push(a);
    sum.window!.push(cpu(() => window.all(q.match))[0]);
    const [c, approx] = cpu(() => rankInJs(q));
    sum['window+counts']!.push(c);
    const [pc, viaPostings] = cpu(() => rankPostings(q));
    sum['window+postings']!.push(pc);
    const [sc, viaSql] = cpu(() => rankSql(q));
    sum['window+sql']!.push(sc);
    if (round === 0) {
      addOverlap(o, exact, approx);
      addOverlap(op, exact, viaPostings);
      addOverlap(os, exact, viaSql);
    }
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const phr = queries.reduce((s, q) => s + q.phrases.length, 0) / queries.length;
console.log(`${queries.length} queries × ${rounds} rounds, ${N} episodes, ${phr.toFixed(1)} phrases per query, df pass (cached) ${dfMs.toFixed(0)} ms for ${df.size} phrases; CPU ms per query mean / p50 / p95:`);
for (const [k, v] of Object.entries(sum)) console.log(`  ${k.padEnd(16)} ${(v.reduce((x, y) => x + y, 0) / v.length).toFixed(2)} / ${pct(v, 50).toFixed(2)} / ${pct(v, 95).toFixed(2)}`);
console.log(`  of which the query's tokens (temporary table) ${(keysMs / sum['window+counts']!.length).toFixed(2)}`);
console.log(`window+counts vs ranking: ${overlapText(o)}; phrases of several tokens (scored as their rarest token) ${(multi / rounds / queries.length).toFixed(2)} per query`);
console.log(`window+postings vs ranking: ${overlapText(op)}`);
console.log(`window+sql vs ranking: ${overlapText(os)}`);
const size = (t: string) => (db.prepare(`SELECT sum(pgsize) AS b FROM dbstat WHERE name = ?`).get(t) as { b: number | null }).b ?? 0;
try {
  console.log(`sizes (bytes): episodes ${size('episodes')}, episodes_fts_data ${size('episodes_fts_data')}, episode_terms ${size('episode_terms')}, episode_postings ${size('episode_postings')}`);
} catch {
  console.log('dbstat not available');
}
const nq = sum.ranking!.length;
console.log(Object.entries(parts).map(([k, v]) => `${k} ${(v / nq).toFixed(2)}`).join(', '), `posting rows per query ${(postingRows / nq).toFixed(0)}`);
