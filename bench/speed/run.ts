/**
 * npm run bench:speed -- [--sizes 1000,10000,100000] [--out <file.json>] [--sample 1000] [--memories 300]
 *                        [--queries-per-kind 50] [--seed 42] [--no-peers] [--skip-build] [--merge]
 *                        [--vectors 384 [--vector-rounds 2] [--vector-store 500]]  (vectors mode: vectors-run.ts)
 *
 * --merge: the sizes measured now join the other sizes already in the results file (merge.ts), e.g.
 * `--sizes 1000000 --merge` adds the million-turn row to an earlier 1k / 10k / 100k run.
 * npm run bench:speed -- --lifecycle [--lifecycle-writes 10000] [--lifecycle-old 5000] [--load-in-page] [--out <file.json>]
 *                        (seed 003 记忆读写指标达标 with the clean-up in the middle, alone: lifecycle-run.ts; the load
 *                        in a load worker of its own, or with --load-in-page in the page beside the stall probe)
 *
 * Speed and scale of the DB worker on OPFS in headless Chromium, through the UI's own Comlink API, beside
 * MiniSearch and Orama in the same page and the same engine on native SQLite. See bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { generateQueries, generateTurns } from '../lib/corpus';
import { machineInfo, machineLine } from '../lib/machine';
import { runBrowserSize } from './browser-run';
import { openNative, writeMemoryBackup } from './native';
import { mergeResults } from './merge';
import { checks, sizeReport, speedTables, type SpeedResult, type SpeedSize } from './report';
import { serveStatic } from './serve';
import { runLifecycleBench } from './lifecycle-run';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const CACHE = join(REPO, 'bench/.cache');
const DIST = join(CACHE, 'speed');
const PREFILL_DIR = join(DIST, 'prefill');
/** Not 4173: the app's e2e tests own that port. BENCH_PORT lets runs side by side use their own. */
const PORT = Number(process.env.BENCH_PORT ?? 4190);

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    out: { type: 'string' },
    sample: { type: 'string', default: '1000' },
    memories: { type: 'string', default: '300' },
    'queries-per-kind': { type: 'string', default: '50' },
    seed: { type: 'string', default: '42' },
    'no-peers': { type: 'boolean', default: false },
    episodes: { type: 'string', default: '10000' },
    /** Peers (in-memory indexes in the page) only up to this size: past it their heap is the page's limit. */
    'peers-max': { type: 'string', default: '100000' },
    'skip-build': { type: 'boolean', default: false },
    /** Keep the results file's other sizes (measured by an earlier run) and add these to them. */
    merge: { type: 'boolean', default: false },
    /** Chat turns timed through turn.prepare → scripted model → turn.finish (issue 16). */
    turns: { type: 'string', default: '200' },
    /** Memories in the backup file imported while the stall probe runs (issue 16). */
    'import-memories': { type: 'string', default: '10000' },
    /** Export pieces (1 MB each) read while the stall probe runs. */
    'export-chunks': { type: 'string', default: '20' },
    /** Vectors mode (issue 18, vectors-run.ts): only the vector figures, at this many dimensions (0: the default run). */
    vectors: { type: 'string', default: '0' },
    'vector-rounds': { type: 'string', default: '2' },
    'vector-store': { type: 'string', default: '500' },
    /** Only seed 003's writes + retrievals with the lifecycle pass in the middle (issue 19) → speed-lifecycle.json. */
    lifecycle: { type: 'boolean', default: false },
    'lifecycle-writes': { type: 'string', default: '10000' },
    'lifecycle-old': { type: 'string', default: '5000' },
    /** The lifecycle load generator in the page beside the stall probe (the layout before load-worker.ts), for an A/B. */
    'load-in-page': { type: 'boolean', default: false },
    /** Cold starts per size, each the app's DB worker then the bare floor (issue 16's cold ÷ bare is their medians). */
    'cold-starts': { type: 'string', default: '3' },
  },
});

const int = (name: string, v: string | undefined): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
};
const sizes = [...new Set((values.sizes ?? '').split(',').map((s) => int('sizes', s.trim())))].filter((n) => n > 0).sort((a, b) => a - b);
const sample = int('sample', values.sample);
const memories = int('memories', values.memories);
const perKind = int('queries-per-kind', values['queries-per-kind']);
const seed = int('seed', values.seed);
/** Seed 003 at scale (issue 17): recorded at the largest size only. */
const episodes = int('episodes', values.episodes);
const episodeNote = `seed 003 (issue 17), at the largest size, after everything above: ${episodes} episodes recorded one at a time with episode.record (1–3 candidates from the corpus, two projects), then 60 rules, 200 episode.query (project + scene type + a corpus text), 200 rules.list; typing: main-thread event latency right after sending an episode.record (not awaited) vs nothing sent, and document.update alone vs sent right behind a record, 200 alternating samples each`;
const turnsTimed = int('turns', values.turns);
const peersMax = int('peers-max', values['peers-max']);
const importMemories = int('import-memories', values['import-memories']);
const exportChunks = int('export-chunks', values['export-chunks']);
const RECALL_LIMIT = 5;
const COLD_STARTS = Math.max(1, int('cold-starts', values['cold-starts']));
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function textBytesOf(count: number): number {
  let bytes = 0;
  for (const t of generateTurns({ seed, count })) bytes += Buffer.byteLength(t.content, 'utf8');
  return bytes;
}

async function lifecycleOnly(): Promise<void> {
  if (!values['skip-build']) {
    log('building the harness page (bench/speed → bench/.cache/speed)');
    await build({ configFile: join(HERE, 'vite.config.ts'), logLevel: 'warn' });
  }
  const server = await serveStatic(DIST, PORT);
  try {
    await runLifecycleBench({
      dist: DIST,
      cache: CACHE,
      port: PORT,
      seed,
      writes: int('lifecycle-writes', values['lifecycle-writes']),
      oldEpisodes: int('lifecycle-old', values['lifecycle-old']),
      loadInPage: values['load-in-page'] ?? false,
      out: resolve(values.out ?? join(REPO, 'bench/results/speed-lifecycle.json')),
      log,
    });
  } finally {
    server.close();
  }
}

async function main(): Promise<void> {
  const t0 = performance.now();
  if (sizes.length === 0) throw new Error('--sizes needs at least one positive size');
  if (int('vectors', values.vectors) > 0) {
    const file = resolve(values.out ?? join(REPO, 'bench/results/speed-vectors.json'));
    const { runVectorsMode } = await import('./vectors-run');
    await runVectorsMode({
      sizes, dims: int('vectors', values.vectors), seed, queries: generateQueries({ seed, perKind }), rounds: int('vector-rounds', values['vector-rounds']),
      storeTurns: int('vector-store', values['vector-store']), recallLimit: RECALL_LIMIT, skipBuild: values['skip-build'] ?? false, cache: CACHE,
      harnessConfig: join(HERE, 'vite.config.ts'), port: PORT, file, log,
    });
    console.log(`→ ${file}`);
    return;
  }
  if (!values['skip-build']) {
    log('building the harness page (bench/speed → bench/.cache/speed)');
    await build({ configFile: join(HERE, 'vite.config.ts'), logLevel: 'warn' });
  }
  mkdirSync(PREFILL_DIR, { recursive: true });
  const server = await serveStatic(DIST, PORT);
  const queries = generateQueries({ seed, perKind });
  let importUrl: string | null = null;
  if (importMemories > 0) {
    log(`writing a backup file of ${importMemories.toLocaleString('en')} memories (native engine) for the import stall figure`);
    const bytes = await writeMemoryBackup(join(DIST, 'import-memories.json'), { seed, count: importMemories });
    importUrl = '/import-memories.json';
    log(`  ${(bytes / 2 ** 20).toFixed(1)} MB`);
  }
  const native = openNative({ path: join(CACHE, 'native.sqlite3'), seed, total: sizes.at(-1) ?? 0 });
  const out: SpeedSize[] = [];
  let chromium = 'unknown';
  const resultNow = (): SpeedResult => ({
    machine: { ...machineInfo(), chromium },
    config: {
      sizes, seed, ui_sample: sample, memories, queries: queries.length, queries_per_kind: perKind, recall_limit: RECALL_LIMIT, cold_starts: COLD_STARTS,
      peers: !values['no-peers'], peers_max: peersMax, turns: turnsTimed, import_memories: importMemories, export_chunks: exportChunks, episodes,
    },
    sizes: out,
    checks: checks(out),
    notes: [
      `each size in a fresh Chromium profile (fresh OPFS); the last min(size, ${sample}) turns appended one at a time through Comlink + createCaller, each timed`,
      'earlier turns: written on better-sqlite3 by the bulk prefill (bulk-fill.ts: the rows message.append writes, with the engine\'s own symbol, full-text and title functions, in 25,000-turn transactions; the rolling summaries through the engine; equal to the engine path, bulk-fill.test.ts), the file is imported into the OPFS pool (bench-only bulk path)',
      'recall = recall.search (limit 5) over a fixed set of symbol / zh / en / mixed queries; memories = memory.create after the turns',
      'worker memory: V8 used heap over CDP after a forced GC; sqlite-wasm linear memory and sqlite3_status64(MEMORY_USED) read in the worker (worker-heap.ts); peers: page JS heap added, after gc()',
      'send overhead: the chat path (engine/client/generation-run.ts: turn.prepare → openai-compatible provider → turn.finish) against a scripted model on the harness server that answers at once; send → the request leaves (fetch called), reply done (stream ended) → stored (turn.finish answered with the message)',
      'cold start: alternately the app page (DB worker: worker start, wasm, OPFS pool, open, engine = migrations checked + services, first recall) and ?bare (bare.worker.ts: sqlite-wasm, same pool and file, one FTS query), each from its navigation start',
      'stalls: while each job runs, session.list (limit 20) every 5 ms; the longest wait is what a person feels; the import file holds the --import-memories memories (written by the native engine)',
      episodeNote,
    ],
    elapsed_ms: Math.round(performance.now() - t0),
  });
  const file = resolve(values.out ?? join(REPO, 'bench/results/speed.json'));
  mkdirSync(dirname(file), { recursive: true });
  // Read before the first save overwrites it: every save (partial ones too) keeps the earlier run's sizes.
  const previous: SpeedResult | null = values.merge && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SpeedResult) : null;
  if (previous) log(`merging into ${file}: keeping sizes ${previous.sizes.map((s) => s.turns).filter((n) => !sizes.includes(n)).join(', ') || '(none)'}`);
  // Written after every size, so a long run cut short (a million turns on a busy machine) keeps what it measured.
  const save = (result: SpeedResult) => writeFileSync(file, `${JSON.stringify(previous ? mergeResults(previous, result) : result, null, 2)}\n`);
  // The machine's load while each size runs: on a shared machine absolute times move with it.
  let loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 10_000);
  const loadOf = (): SpeedSize['load'] => {
    const xs = [...loads].sort((a, b) => a - b);
    const r2 = (v: number) => Math.round(v * 100) / 100;
    return xs.length ? { min: r2(xs[0] as number), median: r2(xs[Math.floor(xs.length / 2)] as number), max: r2(xs.at(-1) as number), samples: xs.length } : undefined;
  };
  try {
    for (const size of sizes) {
      loads = [loadavg()[0] ?? 0];
      const ui = Math.min(size, sample);
      const from = size - ui;
      log(`── ${size.toLocaleString('en')} turns: ${from} prefilled natively, ${ui} through the UI path`);
      const fillStart = performance.now();
      let told = native.turns();
      await native.fillTo(from, (stored) => {
        if (stored - told < 50_000) return;
        told = stored;
        const s = (performance.now() - fillStart) / 1000;
        log(`  native prefill: ${stored.toLocaleString('en')} turns (${s.toFixed(0)} s for this size, load ${(loadavg()[0] ?? 0).toFixed(1)})`);
      });
      log(`  native prefill at ${from.toLocaleString('en')} turns (${((performance.now() - fillStart) / 1000).toFixed(0)} s for this size)`);
      // The browser starts from the prefill: with none (every turn through the UI) no native session continues there.
      const open = from > 0 ? native.openSession() : null;
      let prefillUrl: string | null = null;
      if (from > 0) {
        const file = `prefill-${size}.sqlite3`;
        const bytes = native.snapshot(join(PREFILL_DIR, file));
        prefillUrl = `/prefill/${file}`;
        log(`  prefill file ${(bytes / 2 ** 20).toFixed(1)} MB`);
      }
      const nativeStore = await native.storeTimed(size);
      const nativeRecall = await native.recall(queries, RECALL_LIMIT);
      const nativeBytes = await native.dbBytes();
      const browser = await runBrowserSize({
        baseUrl: `http://127.0.0.1:${PORT}/`,
        profileDir: join(CACHE, 'chromium-profile'),
        size,
        seed,
        from,
        open,
        prefillUrl,
        queries,
        memories,
        recallLimit: RECALL_LIMIT,
        coldStarts: COLD_STARTS,
        peers: !values['no-peers'] && size <= peersMax,
        turns: turnsTimed,
        importUrl,
        exportChunks,
        episodes: size === sizes.at(-1) ? episodes : 0,
        log,
      });
      if (prefillUrl) rmSync(join(DIST, prefillUrl), { force: true });
      chromium = browser.chromium;
      if (browser.prefill && browser.prefill.pageSize !== 8192) log(`  WARNING: the browser's page size is ${browser.prefill.pageSize}, the prefill's 8192`);
      if (browser.sessionsListed !== native.sessions()) throw new Error(`the browser holds ${browser.sessionsListed} sessions, native ${native.sessions()}: the prefill did not arrive`);
      const load = loadOf();
      out.push({
        ...sizeReport({
          turns: size,
          sessions: native.sessions(),
          prefilled: from,
          textBytes: textBytesOf(size),
          browser,
          native: { storeMs: nativeStore, recallMs: nativeRecall.map((r) => r.ms), dbBytes: nativeBytes },
        }),
        ...(load ? { load } : {}),
      });
      log(`  store p95 ${out.at(-1)?.store_turn_ms.p95} ms, recall p95 ${out.at(-1)?.recall_ms.all.p95} ms`);
      save({ ...resultNow(), notes: [...resultNow().notes, `partial: the run was still going (sizes ${out.map((x) => x.turns).join(', ')} done)`] });
    }
  } finally {
    clearInterval(sampler);
    native.close();
    rmSync(join(CACHE, 'native.sqlite3'), { force: true });
    server.close();
  }
  const result = resultNow();
  save(result);
  const last = out.at(-1);
  if (last?.episodes) log(`  episode.record p95 ${last.episodes.record_ms.p95} ms, episode.query p95 ${last.episodes.query_ms.p95} ms, rules.list p95 ${last.episodes.rules_list_ms.p95} ms`);
  console.log(`\n${machineLine(result.machine)}, Chromium ${chromium}\n\n${speedTables(result, 'text')}\n\n→ ${file} (${(result.elapsed_ms / 1000).toFixed(0)} s)`);
}

// SIGTERM / SIGINT stop the run. Playwright installs its own SIGTERM listener (it closes its browsers), and a listener
// stops Node's default exit, so the run went on until SIGKILL. Exiting runs Playwright's exit hook, which kills
// Chromium; the results file keeps every size finished before the signal (saved after each size).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping (the results file keeps the sizes finished so far)`);
    rmSync(join(CACHE, 'native.sqlite3'), { force: true });
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  });
}

await (values.lifecycle ? lifecycleOnly() : main());
