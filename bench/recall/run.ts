/**
 * npm run bench:recall -- [--dataset locomo|longmemeval|madial] [--data <file>] [--memory <file>] [--out <file.json>]
 *
 * Retrieval quality of the product's own store and recall path on public conversation sets, beside plain FTS5
 * BM25, MiniSearch and Orama on the same units and queries. Without --dataset, all three run, each writing
 * bench/results/recall-<dataset>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machineInfo } from '../lib/machine';
import { runLocomo } from './datasets/locomo';
import { runLongMemEval } from './datasets/longmemeval';
import { runMadial } from './datasets/madial';
import type { DatasetRun } from './datasets/common';
import { engineWarnings, useBenchEmbeddings } from './engine-host';
import { benchEmbeddings, type BenchEmbeddings } from './embedding-provider';
import { itemRows, printResult, toResult } from './output';
import { ABLATION_NOTES, ablationOf, ablationPasses, halfRows, type AblationResult } from './ablation';
import { textTable } from '../lib/table';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The data sets (never copied into the repository): ../shared/bench beside the checkout, or BENCH_DATA_DIR. */
const SHARED = resolve(process.env.BENCH_DATA_DIR ?? resolve(REPO, '../shared/bench'));
const DEFAULTS = {
  locomo: { data: join(SHARED, 'locomo/locomo-dev.json') },
  longmemeval: { data: join(SHARED, 'longmemeval/longmemeval-s-dev.json') },
  madial: { data: join(SHARED, 'madial/madial-zh-dialogue-dev.jsonl'), memory: join(SHARED, 'madial/madial-zh-memory.jsonl') },
} as const;
type Dataset = keyof typeof DEFAULTS;
const isDataset = (v: string): v is Dataset => Object.hasOwn(DEFAULTS, v);

const { values } = parseArgs({
  options: {
    dataset: { type: 'string' },
    data: { type: 'string' },
    memory: { type: 'string' },
    out: { type: 'string' },
    /** Each scored question's own scores → this JSON file (compare two with bench/recall/compare-items.ts). */
    'per-item': { type: 'string' },
    /** Development only: score the first N LongMemEval questions. */
    limit: { type: 'string' },
    /** Each retrieval technique switched off in turn → bench/results/ablation.json (no baselines). */
    ablation: { type: 'boolean' },
    /** Meaning-based recall on (issue 18): an OpenAI-compatible base URL (…/v1) and its embedding model. */
    embeddings: { type: 'string' },
    'embedding-model': { type: 'string' },
    /** A JSON file of vectors (model + text → vector), read first and written back: a second run needs no server. */
    'vector-cache': { type: 'string' },
  },
});

async function runOne(dataset: Dataset, opts: { data?: string; memory?: string; out?: string }): Promise<void> {
  const data = resolve(opts.data ?? DEFAULTS[dataset].data);
  const memory = dataset === 'madial' ? resolve(opts.memory ?? DEFAULTS.madial.memory) : undefined;
  const t0 = performance.now();
  let run: DatasetRun;
  if (dataset === 'locomo') run = await runLocomo(data);
  else if (dataset === 'longmemeval') run = await runLongMemEval(data, { limit: values.limit ? Number(values.limit) : undefined });
  else run = await runMadial(data, memory as string);
  const result = toResult(run, { elapsedMs: performance.now() - t0, data: (memory ? [data, memory] : [data]).map((f) => relative(REPO, f)), machine: machineInfo() });
  const out = resolve(opts.out ?? join(REPO, 'bench/results', values.embeddings ? `recall-${dataset}-embeddings.json` : `recall-${dataset}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`${printResult(result)}\n→ ${out}\n`);
  if (values['per-item']) {
    const file = resolve(values['per-item']);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(itemRows(run))}\n`);
    console.log(`per item → ${file}\n`);
  }
}

async function runAblation(datasets: readonly Dataset[]): Promise<void> {
  const out = resolve(values.out ?? join(REPO, 'bench/results/ablation.json'));
  const result: AblationResult = { datasets: {}, notes: ABLATION_NOTES, machine: machineInfo() };
  for (const dataset of datasets) {
    const data = resolve(values.data ?? DEFAULTS[dataset].data);
    const passes = ablationPasses(dataset);
    const opts = { passes, baselines: false };
    const t0 = performance.now();
    let run: DatasetRun;
    if (dataset === 'locomo') run = await runLocomo(data, opts);
    else if (dataset === 'longmemeval') run = await runLongMemEval(data, { ...opts, limit: values.limit ? Number(values.limit) : undefined });
    else run = await runMadial(data, resolve(values.memory ?? DEFAULTS.madial.memory), opts);
    const r = ablationOf(run, passes, performance.now() - t0);
    result.datasets[dataset] = r;
    const keys = Object.keys(r.passes[passes[0]?.name ?? ''] ?? {});
    console.log(`${dataset} ablation (n = ${r.n}, ${(r.elapsed_ms / 1000).toFixed(0)} s)`);
    console.log(textTable(['pass', ...keys], Object.entries(r.passes).map(([name, m]) => [name, ...keys.map((k) => m[k])])));
    const halves = halfRows(dataset, r);
    const { a, b, flips } = r.halves;
    console.log(`\nhalves ${r.halves.split}: A ${a.groups} groups / ${a.n} questions, B ${b.groups} / ${b.n}; one question = ${(1 / a.n).toFixed(3)} on A, ${(1 / b.n).toFixed(3)} on B`);
    console.log(textTable(halves.header, halves.rows));
    const flipped = Object.entries(flips).map(([pass, on]) => `${pass} (${on.join(', ')})`);
    console.log(`flips on the two halves: ${flipped.length ? flipped.join('; ') : 'none'}\n`);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`→ ${out}`);
}

/** The embedding provider of this run, or null (lexical figures, and the bench says so). */
function setupEmbeddings(): BenchEmbeddings | null {
  if (!values.embeddings) {
    if (values['embedding-model'] || values['vector-cache']) {
      console.error('--embedding-model and --vector-cache need --embeddings <base-url>');
      process.exit(2);
    }
    console.log('no embedding provider: lexical recall (meaning-based recall needs --embeddings <base-url> --embedding-model <name>)\n');
    return null;
  }
  if (!values['embedding-model']) {
    console.error('--embeddings needs --embedding-model <name> (e.g. nomic-embed-text)');
    process.exit(2);
  }
  const p = benchEmbeddings({ baseUrl: values.embeddings, model: values['embedding-model'], cacheFile: values['vector-cache'] ? resolve(values['vector-cache']) : undefined });
  console.log(`embedding provider: ${values['embedding-model']} at ${values.embeddings}${values['vector-cache'] ? ` (vector cache ${values['vector-cache']})` : ''}\n`);
  return p;
}

async function main(): Promise<void> {
  if (values.dataset !== undefined && !isDataset(values.dataset)) {
    console.error(`--dataset must be one of ${Object.keys(DEFAULTS).join(', ')}`);
    process.exit(2);
  }
  if (values.dataset === undefined && (values.data || values.memory || values['per-item'] || (values.out && !values.ablation))) {
    console.error('--data, --memory, --out and --per-item need --dataset');
    process.exit(2);
  }
  const datasets: Dataset[] = values.dataset ? [values.dataset] : ['locomo', 'longmemeval', 'madial'];
  const embeddings = setupEmbeddings();
  useBenchEmbeddings(embeddings);
  if (values.ablation) return runAblation(datasets);
  for (const d of datasets) await runOne(d, { data: values.data, memory: values.memory, out: values.out });
  if (embeddings) {
    embeddings.save();
    console.log(`embeddings: ${embeddings.stats.cached} texts from the vector cache, ${embeddings.stats.fetched} from the server`);
  }
  if (engineWarnings.size) console.warn('engine warnings:', Object.fromEntries(engineWarnings));
}

await main();
