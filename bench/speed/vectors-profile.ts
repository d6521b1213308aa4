/**
 * npx tsx bench/speed/vectors-profile.ts [--turns 100000] [--dims 384] [--queries-per-kind 50] [--rounds 3]
 *
 * Where a recall with the meaning lane spends its time beyond the lexical recall (issue 18), natively (better-sqlite3,
 * Node), every stage timed side by side in one process so the ratios hold on a loaded machine:
 *   lexical   lexicalStage — the bm25 / symbol / time lanes (what the lane overlaps with in the browser)
 *   search    VectorIndex.search of the question's vector over every turn's vector (the vector worker's part)
 *   fuse0     recallFromLexical without the lane (the lexical recall's steps 2–6)
 *   fuse1     recallFromLexical with the lane's hits (the extra ids' facts, scores, conversations)
 *   json      the question's vector as the endpoint's JSON: encode + decode (the worker's share of the request)
 * The browser adds the endpoint's round trip and two postMessage hops (the speed bench's vectors mode measures those).
 * The turns come from the speed corpus (bulk-filled as bench:speed does); the vectors from fake-vectors.ts.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { quantise } from '../../src/lib/domain/embeddings/quantise';
import { VectorIndex } from '../../src/lib/domain/embeddings/vector-index';
import { retrievalConfig } from '../../src/lib/domain/recall/config';
import { lexicalStage, recallFromLexical, type RecallInput } from '../../src/lib/domain/recall/pipeline';
import { createTurnIndex } from '../../src/lib/engine/recall/turn-index';
import { createBetterSqlite3Driver } from '../../src/lib/engine/store/better-sqlite3-driver';
import { generateQueries } from '../lib/corpus';
import { summarize } from '../lib/stats';
import { fakeVectorOfId, fakeVectorOfText } from './fake-vectors';
import { openNative } from './native';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '100000' },
    dims: { type: 'string', default: '384' },
    'queries-per-kind': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
  },
});
const turns = Number(values.turns);
const dims = Number(values.dims);
const seed = Number(values.seed);
const rounds = Number(values.rounds);

const dir = tmpdir();
const fillPath = join(dir, `vectors-profile-fill-${process.pid}.sqlite3`);
const dbPath = join(dir, `vectors-profile-${process.pid}.sqlite3`);
const t0 = performance.now();
const native = openNative({ path: fillPath, seed, total: turns });
await native.fillTo(turns);
native.snapshot(dbPath);
native.close();
rmSync(fillPath, { force: true });
console.log(`filled ${turns} turns in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const db = new Database(dbPath);
db.exec('PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY;');
const driver = createBetterSqlite3Driver(db);
const source = createTurnIndex(driver);
const config = retrievalConfig(undefined);
const ids = (db.prepare('SELECT id FROM messages').pluck().all() as number[]).map(Number);
const index = new VectorIndex(dims, ids.length);
for (const id of ids) index.set(id, quantise(fakeVectorOfId(seed, dims, id)));
console.log(`${index.size} vectors of ${dims} dimensions in memory`);

const queries = generateQueries({ seed, perKind: Number(values['queries-per-kind']) });
const times: Record<'lexical' | 'search' | 'fuse0' | 'fuse1' | 'json' | 'lexicalRecall' | 'meaningRecall', number[]> = {
  lexical: [], search: [], fuse0: [], fuse1: [], json: [], lexicalRecall: [], meaningRecall: [],
};
let extraIds = 0;
for (let round = 0; round < rounds; round++) {
  for (const q of queries) {
    const input: RecallInput = { query: q.text, limit: 5, recentTurns: 10, blockSize: 20, includeSummaries: true };
    const now = Date.now();
    const floats = fakeVectorOfText(seed, dims, q.text);
    let t = performance.now();
    const wire = JSON.stringify({ data: [{ index: 0, embedding: floats }] });
    const parsed = JSON.parse(wire) as { data: { embedding: number[] }[] };
    const qv = quantise(parsed.data[0]?.embedding ?? []);
    times.json.push(performance.now() - t);
    t = performance.now();
    const lexical = lexicalStage(input, { source, now, config });
    times.lexical.push(performance.now() - t);
    t = performance.now();
    const hits = index.search(qv, { k: config.semanticCandidates, floor: config.semanticFloor });
    times.search.push(performance.now() - t);
    t = performance.now();
    recallFromLexical(lexical, { source, now, config });
    times.fuse0.push(performance.now() - t);
    const lane = { turns: new Map(hits.map((h) => [h.id, h.cosine])), info: { state: 'on' as const, model: 'fake', reason: null, coverage: null } };
    const fresh = lexicalStage(input, { source, now, config });
    t = performance.now();
    recallFromLexical(fresh, { source, now, config, semantic: lane });
    times.fuse1.push(performance.now() - t);
    extraIds += [...lane.turns.keys()].filter((id) => !lexical.ftsRanks.has(id)).length;
    times.lexicalRecall.push(times.lexical.at(-1)! + times.fuse0.at(-1)!);
    times.meaningRecall.push(times.lexical.at(-1)! + times.fuse1.at(-1)!);
  }
}
const fmt = (xs: number[]) => {
  const s = summarize(xs);
  return `p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} mean ${s.mean.toFixed(2)} ms`;
};
for (const [k, xs] of Object.entries(times)) console.log(`${k.padEnd(14)} ${fmt(xs)}`);
const p95 = (xs: number[]) => summarize(xs).p95;
console.log(`lane hits not among the lexical candidates: ${(extraIds / (queries.length * rounds)).toFixed(1)} a question`);
console.log(`meaning recall in-line (lexical + fuse1, the search overlapped) / lexical recall, p95: ×${(p95(times.meaningRecall) / p95(times.lexicalRecall)).toFixed(3)}`);
console.log(`search p95 / lexical-stage p95: ×${(p95(times.search) / p95(times.lexical)).toFixed(3)}`);
db.close();
rmSync(dbPath, { force: true });
