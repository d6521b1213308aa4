/**
 * npm run bench:speed -- --vectors 384 [--sizes 100000] [--vector-rounds 2] [--vector-store 500] [--out <file>]
 *
 * The vectors mode (issue 18): at each size, a fresh Chromium profile holds `size` turns (prefilled by the native
 * engine, as the default run does), then the page's vectors workload (vectors.ts) stores a fake vector for every
 * turn through embeddings.pending / embeddings.store and measures, in that one run, recall with the meaning lane vs
 * lexical only, store with vectors (and the fill following in the background) vs without, and bytes per vector.
 * Results: bench/results/speed-vectors.json (and a section of latest.md via bench/lib/latest.ts).
 */
import type { Page } from '@playwright/test';
import { launchBenchChromium } from './chromium';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'vite';
import type { CorpusQuery } from '../lib/corpus';
import { machineInfo } from '../lib/machine';
import { round, summarize, type LatencySummary } from '../lib/stats';
import { openNative } from './native';
import type { BenchApi } from './page';
import { serveStatic, type FakeEmbeddings } from './serve';
import type { VectorsReport } from './vectors';
import { workerHeap } from './worker-heap';
import { workerBytesPerVector, type LaneProfile, type VectorsResult, type VectorsSize } from './vectors-report';
import type { SemanticTiming } from '../../src/lib/domain/recall/types';

const r = (s: LatencySummary): LatencySummary => ({ n: s.n, p50: round(s.p50), p95: round(s.p95), p99: round(s.p99), mean: round(s.mean), max: round(s.max) });

function sizeOf(turns: number, v: VectorsReport, requests: number): VectorsSize {
  const lexical = summarize(v.recall.lexicalFirstMs);
  const meaning = summarize(v.recall.meaningFirstMs);
  const lexicalRepeat = summarize(v.recall.lexicalSecondMs);
  const meaningCached = summarize(v.recall.meaningSecondMs);
  const meaningTyped = summarize(v.recall.meaningTypedMs);
  const storeLexical = summarize(v.storeLexicalMs);
  const storeWith = summarize(v.storeWithVectorsMs);
  const asks = v.recall.lexicalFirstMs.length || 1;
  return {
    turns,
    dims: v.dims,
    vectors_stored: v.fill.vectors,
    fill_wall_ms: Math.round(v.fill.wallMs),
    db_bytes_before: v.fill.dbBytesBefore,
    db_bytes_after: v.fill.dbBytesAfter,
    bytes_per_vector: round((v.fill.dbBytesAfter - v.fill.dbBytesBefore) / Math.max(1, v.fill.vectors), 1),
    first_meaning_recall_ms: round(v.firstMeaningRecallMs, 1),
    recall_ms: { lexical: r(lexical), meaning: r(meaning), lexical_repeat: r(lexicalRepeat), meaning_cached: r(meaningCached), meaning_typed: r(meaningTyped) },
    recall_p95_ratio: round(meaning.p95 / lexical.p95),
    recall_p95_ratio_cached: round(meaningCached.p95 / lexicalRepeat.p95),
    recall_p95_ratio_typed: round(meaningTyped.p95 / lexical.p95),
    store_ms: { lexical: r(storeLexical), with_vectors: r(storeWith) },
    store_p95_ratio: round(storeWith.p95 / storeLexical.p95),
    embedded_during_store: v.embeddedDuringStore,
    meaning_states: v.meaningStates,
    mean_results: { lexical: round(v.resultsLexical / asks, 2), meaning: round(v.resultsMeaning / asks, 2) },
    endpoint_requests: requests,
    lane_profile: { first: laneProfile(v.laneFirst), cached: laneProfile(v.laneCached) },
  };
}

function laneProfile(timings: SemanticTiming[]): LaneProfile {
  const pick = (xs: number[]) => {
    const s = summarize(xs);
    return { p50: round(s.p50), p95: round(s.p95) };
  };
  const where: Record<string, number> = {};
  for (const t of timings) where[t.where] = (where[t.where] ?? 0) + 1;
  const embeds = timings.flatMap((t) => (t.embedMs === null ? [] : [t.embedMs]));
  return {
    n: timings.length,
    where,
    embed_ms: embeds.length ? pick(embeds) : null,
    search_ms: pick(timings.map((t) => t.searchMs)),
    lane_ms: pick(timings.map((t) => t.laneMs)),
    lexical_ms: pick(timings.map((t) => t.lexicalMs ?? 0)),
    wait_ms: pick(timings.map((t) => t.waitMs ?? 0)),
  };
}

type Bench = { engramBench: BenchApi };

export async function runVectorsMode(opts: {
  sizes: number[];
  dims: number;
  seed: number;
  queries: CorpusQuery[];
  rounds: number;
  storeTurns: number;
  recallLimit: number;
  skipBuild: boolean;
  cache: string;
  harnessConfig: string;
  port: number;
  file: string;
  log: (line: string) => void;
}): Promise<VectorsResult> {
  const t0 = performance.now();
  const loadAtStart = loadavg().map((x) => round(x, 2));
  const dist = join(opts.cache, 'speed');
  const prefillDir = join(dist, 'prefill');
  if (!opts.skipBuild) {
    opts.log('building the harness page (bench/speed → bench/.cache/speed)');
    await build({ configFile: opts.harnessConfig, logLevel: 'warn' });
  }
  mkdirSync(prefillDir, { recursive: true });
  const fake: FakeEmbeddings = { dims: opts.dims, seed: opts.seed, requests: 0 };
  const server = await serveStatic(dist, opts.port, fake);
  const native = openNative({ path: join(opts.cache, 'native-vectors.sqlite3'), seed: opts.seed, total: opts.sizes.at(-1) ?? 0 });
  const out: VectorsSize[] = [];
  let chromiumVersion = 'unknown';
  const result = (): VectorsResult => ({
    machine: { ...machineInfo(), chromium: chromiumVersion },
    config: { sizes: opts.sizes, dims: opts.dims, seed: opts.seed, queries: opts.queries.length, rounds: opts.rounds, store_turns: opts.storeTurns, recall_limit: opts.recallLimit },
    sizes: out,
    notes: [
      'each size in a fresh Chromium profile (fresh OPFS); all turns prefilled by the same engine on better-sqlite3 and imported, as the default run does',
      `vectors: ${opts.dims} dimensions from bench/speed/fake-vectors.ts (seeded, 64 clusters), stored through embeddings.pending → embeddings.store (the jobs worker's calls; 256 a batch for the bulk fill, 32 for the background fill), quantised to int8 by the engine`,
      'recall: recall.search (limit 5) over the corpus queries, alternately lexical only (no embedding model configured) and with the meaning lane, every question asked twice in a row; "meaning" = first ask, which embeds the question through the harness server\'s /v1/embeddings (answers at once, loopback); "cached" = the repeat, the question\'s vector cached (the engine\'s own cost); the lexical repeat is its pair',
      'store: message.append one at a time; lexical = before any vector exists, no embedding model; with vectors = after every turn has its vector, while a background loop embeds the new turns as they arrive (batches of 32, as the embeddings job)',
      'bytes per vector: system.status dbBytes after the fill − before, ÷ vectors stored',
      'worker memory at the end, over CDP after a forced GC: V8 used heap, ArrayBuffer backing stores, and every WebAssembly.Memory the worker holds (Runtime.queryObjects, wasm-memory.ts: the vector-search worker\'s rows live in the dot kernel\'s memory, counted by neither of the others; not read in the DB worker, where queryObjects does not answer — its sqlite-wasm memory is the default run\'s worker_heap.wasm_memory); vector-search worker bytes per vector = the three ÷ vectors stored',
      'first meaning recall: the first recall.search with the lane on after the fill, asked again every 100 ms while it answers degraded \'index-loading\' (the index loads in the background from the database\'s open and follows the fill); the time until it is on',
    ],
    elapsed_ms: Math.round(performance.now() - t0),
    load_average: { start: loadAtStart, end: loadavg().map((x) => round(x, 2)) },
  });
  mkdirSync(dirname(opts.file), { recursive: true });
  try {
    for (const size of opts.sizes) {
      opts.log(`── vectors mode, ${size.toLocaleString('en')} turns, ${opts.dims} dimensions`);
      await native.fillTo(size);
      const file = `prefill-vectors-${size}.sqlite3`;
      const bytes = native.snapshot(join(prefillDir, file));
      opts.log(`  prefill file ${(bytes / 2 ** 20).toFixed(1)} MB`);
      const profile = join(opts.cache, 'chromium-profile-vectors');
      const context = await launchBenchChromium(profile);
      try {
        chromiumVersion = context.browser()?.version() ?? 'unknown';
        const page: Page = context.pages()[0] ?? (await context.newPage());
        page.on('console', (m) => {
          // A vector-search worker that could not start or failed leaves the search in the DB worker: say so.
          if (m.text().startsWith('[bench]') || m.type() === 'error' || m.text().includes('vector-worker')) opts.log(`  page: ${m.text().slice(0, 200)}`);
        });
        page.on('pageerror', (e) => opts.log(`  page error: ${e.message}`));
        await page.goto(`http://127.0.0.1:${opts.port}/?prefill=${encodeURIComponent(`/prefill/${file}`)}`);
        const boot = await page.evaluate(() => (window as unknown as Bench).engramBench.boot());
        if (boot.storage !== 'opfs') throw new Error(`the DB worker is not on OPFS (storage: ${boot.storage})`);
        const requestsBefore = fake.requests;
        const args = { seed: opts.seed, dims: opts.dims, queries: opts.queries, limit: opts.recallLimit, rounds: opts.rounds, storeTurns: opts.storeTurns };
        const report = await page.evaluate((a) => (window as unknown as Bench).engramBench.vectors(a), args);
        // What each worker holds now (every vector loaded, recall and the store blocks done): V8's used heap after a GC.
        const cdp = await context.browser()?.newBrowserCDPSession().catch(() => null);
        const heapOf = async (name: string, wasm: boolean) => {
          const h = cdp ? await workerHeap(cdp, name, { wasm }).catch((e: Error) => (opts.log(`  ${name} heap: ${e.message}`), null)) : null;
          if (cdp && !h) opts.log(`  ${name} heap: not read (no such worker?)`);
          if (h?.wasmError) opts.log(`  ${name} wasm memory: ${h.wasmError}`);
          return h;
        };
        // The vector-search worker first: its figures are the ones the vectors mode is about.
        const vecHeap = await heapOf('vectors.worker', true);
        const dbHeap = await heapOf('db.worker', false);
        const heap = { db_worker: dbHeap?.jsHeapUsed ?? null, vectors_worker: vecHeap?.jsHeapUsed ?? null };
        const buffers = { db_worker: dbHeap?.backingStorage ?? null, vectors_worker: vecHeap?.backingStorage ?? null };
        // The vector rows live in the dot kernel's wasm memory: neither the JS heap nor the ArrayBuffers count it.
        const wasm = { db_worker: dbHeap?.wasmMemory ?? null, vectors_worker: vecHeap?.wasmMemory ?? null };
        const base = sizeOf(size, report, fake.requests - requestsBefore);
        const perVector = workerBytesPerVector({ jsHeap: heap.vectors_worker, arrayBuffers: buffers.vectors_worker, wasm: wasm.vectors_worker }, base.vectors_stored);
        const row = { ...base, js_heap_used: heap, array_buffers: buffers, wasm_memory: wasm, vectors_worker_bytes_per_vector: perVector };
        const mb = (b: number | null) => (b === null ? '—' : `${(b / 2 ** 20).toFixed(1)} MB`);
        opts.log(
          `  JS heap used + ArrayBuffers + wasm memory: DB worker ${mb(heap.db_worker)} + ${mb(buffers.db_worker)} + ${mb(wasm.db_worker)}, vector-search worker ${mb(heap.vectors_worker)} + ${mb(buffers.vectors_worker)} + ${mb(wasm.vectors_worker)} (${perVector ?? '—'} B per vector)`,
        );
        out.push(row);
        const lp = row.lane_profile;
        if (lp) opts.log(`  lane p95 (first asks): lexical lanes ${lp.first.lexical_ms.p95} ms, embedding ${lp.first.embed_ms?.p95 ?? '—'} ms, search ${lp.first.search_ms.p95} ms, lane ${lp.first.lane_ms.p95} ms, waited ${lp.first.wait_ms.p95} ms; cached: search ${lp.cached.search_ms.p95}, waited ${lp.cached.wait_ms.p95} ms`);
        opts.log(
          `  recall p95 lexical ${row.recall_ms.lexical.p95} ms, meaning ${row.recall_ms.meaning.p95} ms (×${row.recall_p95_ratio}); cached ${row.recall_ms.lexical_repeat.p95} vs ${row.recall_ms.meaning_cached.p95} ms (×${row.recall_p95_ratio_cached}); typed ${row.recall_ms.meaning_typed?.p95} ms (×${row.recall_p95_ratio_typed}); store p95 ${row.store_ms.lexical.p95} vs ${row.store_ms.with_vectors.p95} ms; ${row.bytes_per_vector} B per vector`,
        );
      } finally {
        await context.close();
        rmSync(join(prefillDir, file), { force: true });
      }
      writeFileSync(opts.file, `${JSON.stringify(result(), null, 2)}\n`);
    }
  } finally {
    native.close();
    rmSync(join(opts.cache, 'native-vectors.sqlite3'), { force: true });
    server.close();
  }
  const final = result();
  writeFileSync(opts.file, `${JSON.stringify(final, null, 2)}\n`);
  return final;
}
