/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): how much of episode recall's ranking statement is
 * bm25 in Node's sqlite-wasm build (the browser's SQLite; episode-rank-probe.ts is native), at 10,000 episodes, on
 * the statement recall runs (EpisodeRecallQuery.ranked, the wasm driver), every variant timed alternately per query:
 *
 *   ranked        as recall runs it: bm25 over the scope's newest RANK_WINDOW matches
 *   no bm25       the same walk, filter and rows with bm25 replaced by a constant (what ranking without it costs)
 *   ranked 1      the window cut to one match: bm25's statistics pass (each phrase's document count over the whole
 *                 index, FTS5's xQueryPhrase) plus one row
 *   no bm25 1     the same without bm25
 *
 * so bm25's statistics pass ≈ ranked 1 − no bm25 1, and its per-row work (instances, the row's size) ≈ ranked −
 * no bm25 − that pass (from the medians). Wall ms per query (p50 / p95 / mean): proportions only on a loaded machine.
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-bm25-wasm.ts --db /tmp/ep.db --queries /tmp/q.json [--rounds 3]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recallMatch } from '../../src/lib/engine/episodes/recall';
import type { SqlDriver } from '../../src/lib/engine/store/driver';
import { createEpisodeRecallQuery, RANK_WINDOW } from '../../src/lib/engine/store/episode-recall-query';
import { openWasmCopy } from './wasm-copy';

const { values } = parseArgs({ options: { db: { type: 'string' }, queries: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out>');

const base = await openWasmCopy(values.db);

/** The ranking's bm25 call, as episode-recall-query.ts writes it: replaced by a constant for the "no bm25" rows. */
const BM25 = 'bm25(episodes_fts, 1.0, 0.5)';
let withoutBm25 = false;
const driver: SqlDriver = {
  ...base,
  all: (sql, params) => {
    if (!withoutBm25) return base.all(sql, params);
    if (!sql.includes(BM25)) throw new Error(`the ranking statement no longer calls ${BM25}: update this probe`);
    return base.all(sql.replace(BM25, '0.0'), params);
  },
};
const recall = createEpisodeRecallQuery(driver);
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: { projectId?: string | null; text: string } }[]).map((q) => q.input);
const queries = inputs.flatMap((input) => {
  const { match } = recallMatch(input.text);
  return match ? [{ match, project: input.projectId, plan: recall.scope(input.projectId).plan }] : [];
});

const variants = [
  { name: 'ranked', bm25: true, window: RANK_WINDOW },
  { name: 'no bm25', bm25: false, window: RANK_WINDOW },
  { name: 'ranked 1', bm25: true, window: 1 },
  { name: 'no bm25 1', bm25: false, window: 1 },
];
const ms = new Map(variants.map((v) => [v.name, [] as number[]]));
const rounds = Number(values.rounds);
for (let round = 0; round < rounds; round++) {
  queries.forEach((q, qi) => {
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(k + round + qi) % variants.length]!;
      withoutBm25 = !v.bm25;
      const t0 = performance.now();
      recall.ranked(q.match, q.project, 60, v.window, q.plan);
      if (round > 0) ms.get(v.name)!.push(performance.now() - t0);
    }
  });
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
console.log(`${queries.length} queries × ${rounds - 1} timed rounds (one warm-up), window ${RANK_WINDOW}; wall ms per query:`);
for (const [name, xs] of ms) console.log(`  ${name.padEnd(10)} p50 ${pct(xs, 0.5).toFixed(2)} p95 ${pct(xs, 0.95).toFixed(2)} mean ${mean(xs).toFixed(2)}`);
// Shares from the medians: on a loaded machine a few stalled calls move the means more than the work does.
const m = (name: string) => pct(ms.get(name)!, 0.5);
const stats = m('ranked 1') - m('no bm25 1');
const perRow = m('ranked') - m('no bm25') - stats;
console.log(`bm25 share of the ranking (medians): statistics pass ${((stats / m('ranked')) * 100).toFixed(0)} %, per-row ${((perRow / m('ranked')) * 100).toFixed(0)} %, the rest (walk, filter, rows) ${((m('no bm25') / m('ranked')) * 100).toFixed(0)} %`);
