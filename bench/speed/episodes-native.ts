/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): the same episode workload as the Chromium
 * benchmark (episodes.ts) on the same engine over native SQLite (better-sqlite3, the wasm page size), so a change
 * to episode.query or rules.list can be compared side by side in one process before the browser run.
 *
 *   npx tsx bench/speed/episodes-native.ts [--episodes 10000] [--seed 42] [--out file.json]
 *
 * Prints p50/p95 of episode.record, episode.query and rules.list, and of the memory.* calls paired with them as in
 * the Chromium phase (--memories memories stored first, like the stand-in phase; memory.retrieve alternately with
 * episode.query over the stand-in phase's queries); --out writes each query's input and the ids it
 * returned (to compare recall's top 5 between two versions: --compare other.json). Last, the reference at scale: memories
 * filled up to as many as episodes (untimed), then episode.query and memory.retrieve paired again.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sequentialIds, systemClock } from '../../src/lib/domain/clock';
import { silentLogger } from '../../src/lib/domain/log';
import { createCaller, type EngineCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { generateMemories, generateQueries } from '../lib/corpus';
import { episodeReference, episodeWorkload } from './episodes';
import { WASM_PAGE_SIZE } from './native';

const { values } = parseArgs({
  options: { episodes: { type: 'string', default: '10000' }, memories: { type: 'string', default: '300' }, seed: { type: 'string', default: '42' }, out: { type: 'string' }, keep: { type: 'string' }, compare: { type: 'string' } },
});

const db = new Database(':memory:');
db.pragma(`page_size = ${WASM_PAGE_SIZE}`);
db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY;');
const engine = createEngine(
  { driver: createBetterSqlite3Driver(db), clock: systemClock, ids: sequentialIds('p'), log: silentLogger, storage: { kind: 'memory', reason: 'native profile' }, startedAt: Date.now() },
  loadMigrationsFromDisk(),
);
const inner: EngineCaller = createCaller({ call: (req) => engine.handle(req) });
/** Each episode.query's input and the episode ids it returned, in order. */
const queries: { input: unknown; ids: string[] }[] = [];
const caller: EngineCaller = {
  ...inner,
  call: (async (method: string, input: unknown) => {
    const res = await inner.call(method as never, input as never);
    if (method === 'episode.query' && res.ok) queries.push({ input, ids: (res.data as { items: { episode: { rid?: number; id: string; createdAt: number } }[] }).items.map((i) => i.episode.id) });
    return res;
  }) as EngineCaller['call'],
};

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 100) / 100;
};
const seed = Number(values.seed);
for (const m of generateMemories({ seed, count: Number(values.memories) })) await caller.call('memory.create', m);
const retrieveQueries = generateQueries({ seed, perKind: 50 }).map((q) => q.text);
const report = await episodeWorkload({ engine: caller, seed, count: Number(values.episodes), queries: 200, lists: 200, rules: 60, samples: 0, retrieveQueries, setState: () => {} });
// --out / --compare keep the phase's queries (the reference below asks others).
const compared = queries.length;
Object.assign(report, await episodeReference({ engine: caller, seed, memories: Number(values.episodes), queries: 200, retrieveQueries, setState: () => {} }));
queries.splice(compared);
console.log(`episode.record p50/p95 ${pct(report.recordMs, 50)}/${pct(report.recordMs, 95)} ms`);
console.log(`episode.query  p50/p95 ${pct(report.queryMs, 50)}/${pct(report.queryMs, 95)} ms`);
console.log(`rules.list     p50/p95 ${pct(report.rulesListMs, 50)}/${pct(report.rulesListMs, 95)} ms`);
console.log(`memory.create  p50/p95 ${pct(report.memoryCreatePairedMs, 50)}/${pct(report.memoryCreatePairedMs, 95)} ms (between the records)`);
console.log(`memory.retrieve p50/p95 ${pct(report.memoryRetrievePairedMs, 50)}/${pct(report.memoryRetrievePairedMs, 95)} ms (alternating with episode.query)`);
console.log(`reference: episode.query p50/p95 ${pct(report.queryAtScaleMs ?? [], 50)}/${pct(report.queryAtScaleMs ?? [], 95)} ms, memory.retrieve p50/p95 ${pct(report.memoryRetrieveAtScaleMs ?? [], 50)}/${pct(report.memoryRetrieveAtScaleMs ?? [], 95)} ms over ${report.memoriesAtScale} memories`);
console.log(`memory.list    p50/p95 ${pct(report.memoryListPairedMs, 50)}/${pct(report.memoryListPairedMs, 95)} ms (alternating with rules.list)`);
const r2 = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : Number.NaN);
console.log(`reference p95 ratio query÷retrieve at ${report.memoriesAtScale} memories ${r2(pct(report.queryAtScaleMs ?? [], 95), pct(report.memoryRetrieveAtScaleMs ?? [], 95))}, p50 ${r2(pct(report.queryAtScaleMs ?? [], 50), pct(report.memoryRetrieveAtScaleMs ?? [], 50))}`);
console.log(`p95 ratios record÷create ${r2(pct(report.recordMs, 95), pct(report.memoryCreatePairedMs, 95))}, query÷retrieve ${r2(pct(report.queryMs, 95), pct(report.memoryRetrievePairedMs, 95))}, p50 query÷retrieve ${r2(pct(report.queryMs, 50), pct(report.memoryRetrievePairedMs, 50))}`);
// Episode ids are UUIDs made in the engine; rids follow the recording order, the same in every run.
const ridOf = db.prepare<[string], { rid: number }>('SELECT rid FROM episodes WHERE id = ?');
for (const q of queries) q.ids = q.ids.map((id) => String(ridOf.get(id)?.rid ?? id));
if (values.out) writeFileSync(values.out, JSON.stringify(queries));
// The database as the workload left it, to try SQL variants on (sqlite3 / better-sqlite3).
if (values.keep) writeFileSync(values.keep, db.serialize());
if (values.compare) {
  const other = JSON.parse(readFileSync(values.compare, 'utf8')) as { ids: string[] }[];
  let same = 0;
  let overlap = 0;
  let total = 0;
  queries.forEach((q, i) => {
    const o = other[i]?.ids ?? [];
    if (JSON.stringify(o) === JSON.stringify(q.ids)) same++;
    overlap += q.ids.filter((id) => o.includes(id)).length;
    total += Math.max(q.ids.length, o.length);
  });
  console.log(`top-5 identical in ${same}/${queries.length} queries; overlap ${overlap}/${total} = ${Math.round((overlap / Math.max(1, total)) * 1000) / 10}%`);
}
