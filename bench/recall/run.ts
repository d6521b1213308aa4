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
import { engineWarnings } from './engine-host';
import { printResult, toResult } from './output';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = resolve(REPO, '../shared/bench');
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
    /** Development only: score the first N LongMemEval questions. */
    limit: { type: 'string' },
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
  const out = resolve(opts.out ?? join(REPO, 'bench/results', `recall-${dataset}.json`));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`${printResult(result)}\n→ ${out}\n`);
}

async function main(): Promise<void> {
  if (values.dataset !== undefined && !isDataset(values.dataset)) {
    console.error(`--dataset must be one of ${Object.keys(DEFAULTS).join(', ')}`);
    process.exit(2);
  }
  if (values.dataset === undefined && (values.data || values.memory || values.out)) {
    console.error('--data, --memory and --out need --dataset');
    process.exit(2);
  }
  const datasets: Dataset[] = values.dataset ? [values.dataset] : ['locomo', 'longmemeval', 'madial'];
  for (const d of datasets) await runOne(d, { data: values.data, memory: values.memory, out: values.out });
  if (engineWarnings.size) console.warn('engine warnings:', Object.fromEntries(engineWarnings));
}

await main();
