/**
 * Export of 100,000 memories (issue 6), in Node on sqlite-wasm in memory, through the engine exactly as
 * the settings page drives it: backup.exportBegin, then backup.exportChunk (1 MB pieces) until done.
 * Then the import of that file into an empty database, as the settings page drives it: backup.importPreview
 * (streamed parse and validation, a dry run), backup.importApply (one transaction) — with the longest
 * stretch the engine was unavailable to other calls during the preview's parse and the heap it used.
 *
 *   npx tsx bench/backup-export.bench.ts [--memories 100000] [--runs 5] [--import-runs 1]
 *
 * Prints the median of the runs and writes bench/results/backup-export.json. Memories are written with
 * the memory repository (full-text row and history entry each), in one transaction, before timing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixedClock, sequentialIds } from '../src/lib/domain/clock';
import { silentLogger } from '../src/lib/domain/log';
import { createEngine } from '../src/lib/engine/engine';
import { loadMigrationsFromDisk } from '../src/lib/engine/store/migrations-fs';
import { createMemoryRepo } from '../src/lib/engine/store/memory-repo';
import { openWasmDatabase } from '../src/lib/engine/store/open-wasm';
import { machineInfo, machineLine } from './lib/machine';
import { createPrng } from './lib/prng';
import { percentile } from './lib/stats';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MEMORIES = arg('memories', 100_000);
const RUNS = arg('runs', 5);
const IMPORT_RUNS = arg('import-runs', 1);
const CHUNK_CHARS = 1024 * 1024;
const T0 = Date.UTC(2026, 0, 17, 10, 30, 0);

const TOPICS = ['Python', 'TypeScript', '上海', '咖啡', 'vim', '早睡', 'Rust', '小说《长夜》', 'SQLite', '跑步'];
const VERBS = ['喜欢', 'prefers', '经常用', 'avoids', '正在学习', 'writes about'];

async function seed() {
  const clock = fixedClock(T0);
  const opened = await openWasmDatabase({ persistent: false, log: silentLogger });
  const env = { driver: opened.driver, clock, ids: sequentialIds('m'), log: silentLogger, storage: opened.storage, startedAt: T0 };
  const engine = createEngine(env, loadMigrationsFromDisk());
  const repo = createMemoryRepo(env);
  const prng = createPrng(6);
  const started = performance.now();
  opened.driver.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) {
      clock.advance(1000);
      const topic = prng.pick(TOPICS);
      const category = prng.pick(['preference', 'fact', 'pattern'] as const);
      repo.insert(
        {
          scope: 'global',
          projectId: null,
          sessionId: null,
          messageId: null,
          category,
          key: `${category}.topic.${i}`,
          value: { topic, weight: prng.int(1, 9) },
          content: `用户${prng.pick(VERBS)} ${topic}（第 ${i} 条记忆）`,
          tags: [topic, `t${i % 50}`],
          confidence: Math.round(prng.next() * 100) / 100,
          source: prng.pick(['user_stated', 'inferred'] as const),
          language: 'zh',
        },
        { actor: 'extractor', reason: 'bench' },
      );
    }
  });
  return { engine, seedMs: performance.now() - started };
}

async function emptyEngine() {
  const opened = await openWasmDatabase({ persistent: false, log: silentLogger });
  return createEngine(
    { driver: opened.driver, clock: fixedClock(T0), ids: sequentialIds('i'), log: silentLogger, storage: opened.storage, startedAt: T0 },
    loadMigrationsFromDisk(),
  );
}

/** Preview then apply of `text` into an empty database; `probe` pings the engine every 5 ms during the preview. */
async function importOnce(text: string) {
  const engine = await emptyEngine();
  const file = new Blob([text]);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let longestGap = 0;
  let last = performance.now();
  let previewing = true;
  // Another caller's view of the engine while it parses: how long it waits between answers.
  const probe = (async () => {
    while (previewing) {
      await engine.call('system.status', {});
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const t0 = performance.now();
  const preview = await engine.call('backup.importPreview', { file, mode: 'merge' });
  previewing = false;
  await probe;
  if (!preview.ok) throw new Error(`importPreview failed: ${preview.error.code} ${preview.error.message}`);
  const previewMs = performance.now() - t0;
  const t1 = performance.now();
  const applied = await engine.call('backup.importApply', { token: preview.data.token, mode: 'merge' });
  if (!applied.ok) throw new Error(`importApply failed: ${applied.error.code} ${applied.error.message}`);
  const applyMs = performance.now() - t1;
  const total = await engine.call('memory.list', { limit: 1 });
  engine.close();
  return {
    previewMs,
    applyMs,
    memoriesAfter: total.ok ? total.data.total : -1,
    longestStallMs: longestGap,
    heapAddedBytes: heapPeak - heapBefore,
  };
}

async function exportOnce(engine: Awaited<ReturnType<typeof seed>>['engine'], keep?: string[]) {
  const started = performance.now();
  const begin = await engine.call('backup.exportBegin', { scope: { kind: 'all' } });
  if (!begin.ok) throw new Error(`exportBegin failed: ${begin.error.code}`);
  let chars = 0;
  let bytes = 0;
  let chunks = 0;
  let largest = 0;
  const encoder = new TextEncoder();
  for (;;) {
    const res = await engine.call('backup.exportChunk', { exportId: begin.data.exportId, maxChars: CHUNK_CHARS });
    if (!res.ok) throw new Error(`exportChunk failed: ${res.error.code}`);
    chunks++;
    chars += res.data.text.length;
    largest = Math.max(largest, res.data.text.length);
    // What a file on disk takes (the page writes each piece as UTF-8).
    bytes += encoder.encode(res.data.text).length;
    if (keep) keep.push(res.data.text);
    if (res.data.done) break;
  }
  return { ms: performance.now() - started, rows: begin.data.totalRows, chars, bytes, chunks, largestChunkChars: largest };
}

const { engine, seedMs } = await seed();
console.log(`seeded ${MEMORIES} memories (+ history) in ${(seedMs / 1000).toFixed(1)} s`);
const runs = [];
const exported: string[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await exportOnce(engine, i === 0 ? exported : undefined);
  runs.push(r);
  console.log(`run ${i + 1}: ${r.ms.toFixed(0)} ms, ${r.rows} rows, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.chunks} chunks`);
}
const median = percentile(
  runs.map((r) => r.ms),
  50,
);
const last = runs[runs.length - 1] as (typeof runs)[number];
engine.close();

const text = exported.join('');
exported.length = 0;
const imports: Awaited<ReturnType<typeof importOnce>>[] = [];
for (let i = 0; i < IMPORT_RUNS; i++) {
  const r = await importOnce(text);
  imports.push(r);
  console.log(
    `import ${i + 1}: preview ${(r.previewMs / 1000).toFixed(1)} s, apply ${(r.applyMs / 1000).toFixed(1)} s, ${r.memoriesAfter} memories, longest stall ${r.longestStallMs.toFixed(0)} ms, heap +${(r.heapAddedBytes / 2 ** 20).toFixed(0)} MB`,
  );
}
const mid = (pick: (r: (typeof imports)[number]) => number) => Math.round(percentile(imports.map(pick), 50));
const machine = machineInfo();
const result = {
  benchmark: 'backup-export',
  memories: MEMORIES,
  rows: last.rows,
  runs: runs.map((r) => Math.round(r.ms)),
  medianMs: Math.round(median),
  rowsPerSecond: Math.round(last.rows / (median / 1000)),
  bytes: last.bytes,
  megabytes: Math.round(last.bytes / 1e5) / 10,
  chunks: last.chunks,
  chunkChars: CHUNK_CHARS,
  largestChunkChars: last.largestChunkChars,
  import: {
    runs: IMPORT_RUNS,
    previewMs: mid((r) => r.previewMs),
    applyMs: mid((r) => r.applyMs),
    memoriesAfter: imports[0]?.memoriesAfter ?? 0,
    longestStallDuringPreviewMs: mid((r) => r.longestStallMs),
    heapAddedMb: Math.round(mid((r) => r.heapAddedBytes) / 2 ** 20),
  },
  machine,
};
console.log(`\nexport of ${MEMORIES} memories: median ${(median / 1000).toFixed(2)} s over ${RUNS} runs, ${result.megabytes} MB`);
console.log(machineLine(machine));
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'backup-export.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${out}`);
