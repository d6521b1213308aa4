/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): episode.query's whole answers over the benchmark's
 * queries on a kept 10,000-episode database, on the engine over Node's sqlite-wasm build (the browser's driver and
 * column reader), with a fixed clock — so two versions of recall (two worktrees) can be compared answer by answer
 * (same episodes, same order, same whys) and timed on the same data.
 *
 *   npx tsx bench/speed/episodes-native.ts --out /tmp/q.json --keep /tmp/ep.db
 *   npx tsx bench/speed/episode-recall-compare.ts --db /tmp/ep.db --queries /tmp/q.json --out /tmp/a.json [--rounds 3]
 *   (in the other worktree) … --out /tmp/b.json --compare /tmp/a.json
 *
 * Prints episode.query's wall p50/p95 per round (the first round warms up) and, with --compare, per half of the
 * queries (even / odd): identical answers, same ids in the same order, and the share of ids both answered.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fixedClock, sequentialIds } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createEngine } from '../../src/lib/engine/engine';
import type { EpisodeQueryResult } from '../../src/lib/engine/episodes/types';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { compareRecall, type RecallAnswer } from './recall-compare';
import { openWasmCopy } from './wasm-copy';

const { values } = parseArgs({
  options: { db: { type: 'string' }, queries: { type: 'string' }, out: { type: 'string' }, compare: { type: 'string' }, rounds: { type: 'string', default: '3' } },
});
if (!values.db || !values.queries) throw new Error('usage: --db <file from episodes-native --keep> --queries <file from episodes-native --out> [--out answers.json] [--compare other.json]');

const driver = await openWasmCopy(values.db);
// A fixed clock an hour after the newest episode: recency and decay are the same in every run.
const newest = driver.get<{ t: number }>('SELECT max(created_at) AS t FROM episodes')?.t ?? 0;
const engine = createEngine(
  { driver, clock: fixedClock(newest + 3_600_000), ids: sequentialIds('c'), log: silentLogger, storage: { kind: 'memory', reason: 'recall compare' }, startedAt: newest },
  loadMigrationsFromDisk(),
);
const inputs = (JSON.parse(readFileSync(values.queries, 'utf8')) as { input: Input<'episode.query'> }[]).map((q) => q.input);
const pct = (xs: number[], p: number) => ([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0).toFixed(2);

let answers: RecallAnswer[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const ms: number[] = [];
  const got: RecallAnswer[] = [];
  for (const input of inputs) {
    const t0 = performance.now();
    const res = await engine.call('episode.query', input);
    ms.push(performance.now() - t0);
    if (!res.ok) throw new Error(`episode.query: ${res.error.code}`);
    const data = res.data as EpisodeQueryResult;
    got.push({ ids: data.items.map((i) => i.episode.id), whys: data.items.map((i) => i.why), degraded: data.degraded });
  }
  if (round > 0 && JSON.stringify(got) !== JSON.stringify(answers)) throw new Error('the same queries answered differently in two rounds');
  answers = got;
  console.log(`round ${round}: episode.query p50 ${pct(ms, 0.5)} p95 ${pct(ms, 0.95)} ms over ${inputs.length} queries`);
}
if (values.out) writeFileSync(values.out, JSON.stringify(answers));
if (values.compare) {
  const other = JSON.parse(readFileSync(values.compare, 'utf8')) as RecallAnswer[];
  for (const [h, c] of compareRecall(other, answers).entries()) {
    console.log(`half ${h}: identical ${c.identical}/${c.queries}, same order ${c.sameOrder}/${c.queries}, ids shared ${c.shared}/${c.total} = ${((c.shared / Math.max(1, c.total)) * 100).toFixed(1)} %`);
  }
}
