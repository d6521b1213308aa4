/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): what episode recall's MATCH costs the ranking
 * statement, phrase by phrase, at 10,000 episodes on native SQLite (better-sqlite3), CPU per query, each variant
 * timed alternately in one process on the statement recall runs (EpisodeRecallQuery.ranked):
 *
 *   today         recallMatch's MATCH as it is
 *   words bare    the Latin keywords outside the `body :` filter (the grams column holds CJK pairs only, so they
 *                 match the same rows with the same counts; FTS5 then skips the per-row column check)
 *   no clamped    without the phrases in half or more of the episodes (bm25 gives those an idf of 1e-6: they add
 *                 nothing to any score, but each costs a walk of its whole document list and fills the window)
 *
 * with the share of the phrases' document counts (what bm25 walks) each drops, and each variant's top-5 / top-10
 * overlap with today's ranked rows on the two halves of the queries (even / odd).
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-match-probe.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildMatchQuery } from '../../src/lib/domain/text/fts-query';
import { gramsMatchQuery, queryBigrams } from '../../src/lib/domain/text/grams';
import { extractKeywords, isStopWord } from '../../src/lib/domain/text/keywords';
import { RECALL_QUERY_TERMS, recallMatch } from '../../src/lib/engine/episodes/recall';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { createEpisodeRecallQuery, RANK_WINDOW } from '../../src/lib/engine/store/episode-recall-query';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');
const db = new Database(readFileSync(values.db));
const recall = createEpisodeRecallQuery(createBetterSqlite3Driver(db));
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: { projectId?: string | null; text: string } }[]).map((q) => q.input);
const N = (db.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n;
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM episodes_fts WHERE episodes_fts MATCH ?');
const dfCache = new Map<string, number>();
const df = (match: string): number => {
  let n = dfCache.get(match);
  if (n === undefined) dfCache.set(match, (n = count.get(match)?.n ?? 0));
  return n;
};
const CJK = /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}]/u;

const join = (parts: (string | null)[]) => {
  const p = parts.filter((x): x is string => x !== null);
  return p.length ? p.map((x) => `(${x})`).join(' OR ') : null;
};
interface Variant {
  name: string;
  match: string | null;
}
const queries = inputs.map((input) => {
  const { keywords } = recallMatch(input.text);
  const same = extractKeywords(input.text, { max: RECALL_QUERY_TERMS });
  if (same.join('|') !== keywords.join('|')) throw new Error('recallMatch keywords changed');
  const grams = queryBigrams(input.text, { max: RECALL_QUERY_TERMS, stop: (g) => [...g].every((c) => isStopWord(c)) });
  const wordDf = keywords.map((k) => ({ k, n: df(buildMatchQuery([k], { column: 'body', prefix: false }) ?? '""') }));
  const gramDf = grams.map((g) => ({ g, n: df(gramsMatchQuery([g]) ?? '""') }));
  const clamped = (n: number) => n >= N / 2;
  const latin = keywords.filter((k) => !CJK.test(k));
  const cjk = keywords.filter((k) => CJK.test(k));
  const variants: Variant[] = [
    { name: 'today', match: recallMatch(input.text).match },
    { name: 'words bare', match: join([buildMatchQuery(latin, { prefix: false }), buildMatchQuery(cjk, { column: 'body', prefix: false }), gramsMatchQuery(grams)]) },
    {
      name: 'no clamped',
      match: join([
        buildMatchQuery(wordDf.filter((w) => !clamped(w.n)).map((w) => w.k), { column: 'body', prefix: false }),
        gramsMatchQuery(gramDf.filter((g) => !clamped(g.n)).map((g) => g.g)),
      ]),
    },
  ];
  const all = [...wordDf.map((w) => w.n), ...gramDf.map((g) => g.n)];
  const sum = all.reduce((s, n) => s + n, 0);
  const sumClamped = all.filter(clamped).reduce((s, n) => s + n, 0);
  return { input, variants, phrases: all.length, clampedPhrases: all.filter(clamped).length, sum, sumClamped, shares: all.map((n) => n / N) };
});

const cpu = <T>(f: () => T): [number, T] => {
  const t = process.cpuUsage();
  const out = f();
  const d = process.cpuUsage(t);
  return [(d.user + d.system) / 1000, out];
};
const names = queries[0]!.variants.map((v) => v.name);
const ms = new Map<string, number[]>(names.map((n) => [n, []]));
const overlap = new Map<string, number[]>();
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) {
  queries.forEach((q, qi) => {
    // Alternately: each round starts with another variant.
    const order = q.variants.map((_, i) => q.variants[(i + round + qi) % q.variants.length]!);
    const got = new Map<string, string[]>();
    for (const v of order) {
      const [t, rows] = cpu(() => (v.match ? recall.ranked(v.match, q.input.projectId, 60, RANK_WINDOW) : []));
      ms.get(v.name)!.push(t);
      got.set(v.name, rows.map((r) => r.row.id));
    }
    const today = got.get('today')!;
    if (round > 0) return;
    for (const [name, ids] of got) {
      for (const k of [5, 10]) {
        const key = `${name} top-${k} half ${qi % 2}`;
        const a = today.slice(0, k);
        const b = ids.slice(0, k);
        const o = overlap.get(key) ?? [0, 0];
        o[0]! += b.filter((x) => a.includes(x)).length;
        o[1]! += Math.max(a.length, b.length);
        overlap.set(key, o);
      }
    }
  });
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const shares = queries.flatMap((q) => q.shares).sort((a, b) => a - b);
console.log(`${queries.length} queries × ${rounds} rounds, ${N} episodes, window ${RANK_WINDOW}`);
console.log(
  `phrases per query ${mean(queries.map((q) => q.phrases)).toFixed(1)}; document share of a phrase p50 ${pct(shares, 0.5).toFixed(3)} p90 ${pct(shares, 0.9).toFixed(3)}; ` +
    `clamped (≥ N/2) per query ${mean(queries.map((q) => q.clampedPhrases)).toFixed(2)}, their share of the counts walked ${(queries.reduce((s, q) => s + q.sumClamped, 0) / Math.max(1, queries.reduce((s, q) => s + q.sum, 0))).toFixed(3)}`,
);
for (const name of names) {
  const xs = ms.get(name)!;
  const o = (k: number, h: number) => {
    const v = overlap.get(`${name} top-${k} half ${h}`) ?? [0, 1];
    return `${((v[0]! / Math.max(1, v[1]!)) * 100).toFixed(1)} %`;
  };
  console.log(`  ${name.padEnd(12)} CPU ms mean ${mean(xs).toFixed(3)} p50 ${pct(xs, 0.5).toFixed(3)} p95 ${pct(xs, 0.95).toFixed(3)}   top-5 ${o(5, 0)} / ${o(5, 1)}   top-10 ${o(10, 0)} / ${o(10, 1)} (halves)`);
}
