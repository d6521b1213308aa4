/**
 * The ablation (issue 8 "what each technique adds"): the product's own recall path, run over the same stored data
 * once with every technique and once with each technique switched off through the product's retrieval config
 * (EngineEnv.retrieval — the object the app uses with its defaults), plus once with all of a path's techniques off.
 *
 *   npx tsx bench/recall/ablation.ts [--dataset locomo|longmemeval|madial] [--out <file.json>]
 *     (the same as `npx tsx bench/recall/run.ts --ablation …`) → bench/results/ablation.json, no baselines
 */
import {
  MEMORY_TECHNIQUES,
  RECALL_TECHNIQUES,
  withoutTechniques,
  type RetrievalTechnique,
} from '../../src/lib/domain/recall/config';
import { pathToFileURL } from 'node:url';
import type { MachineInfo } from '../lib/machine';
import { round } from '../lib/stats';
import type { DatasetRun, ProductPass } from './datasets/common';
import { averageScores } from '../lib/metrics';

export type AblationDataset = DatasetRun['dataset'];

export const ALL_TECHNIQUES = 'all techniques';
export const NO_TECHNIQUES = 'none (seed formulas only)';
export const without = (t: RetrievalTechnique) => `without ${t}`;

/** Turn recall data sets ablate the recall techniques; MADial (memory retrieval) the memory techniques. */
export function ablationPasses(dataset: AblationDataset): ProductPass[] {
  const techniques: readonly RetrievalTechnique[] = dataset === 'madial' ? MEMORY_TECHNIQUES : RECALL_TECHNIQUES;
  return [
    { name: ALL_TECHNIQUES, config: {} },
    ...techniques.map((t) => ({ name: without(t), config: { [t]: false } })),
    { name: NO_TECHNIQUES, config: withoutTechniques(techniques) },
  ];
}

export interface AblationDatasetResult {
  n: number;
  /** pass name → metric → mean */
  passes: Record<string, Record<string, number>>;
  elapsed_ms: number;
}

export interface AblationResult {
  datasets: Partial<Record<AblationDataset, AblationDatasetResult>>;
  notes: string[];
  machine: MachineInfo;
}

export function ablationOf(run: DatasetRun, passes: readonly ProductPass[], elapsedMs: number): AblationDatasetResult {
  const out: Record<string, Record<string, number>> = {};
  for (const p of passes) {
    const mean = averageScores(run.items.map((i) => i.systems[p.name]?.shown ?? {}));
    out[p.name] = Object.fromEntries(Object.entries(mean).map(([k, v]) => [k, round(v, 4)]));
  }
  return { n: run.items.length, passes: out, elapsed_ms: Math.round(elapsedMs) };
}

export const ABLATION_NOTES = [
  'each pass is the product path (recall.search / memory.retrieve) over the same stored data, k results shown',
  'a pass switches techniques off in EngineEnv.retrieval, the config object the app uses with its defaults',
  'turn-recall techniques are ablated on LoCoMo and LongMemEval, memory-retrieval techniques on MADial',
];

/** The figures the ablation table shows per data set (the goals). */
export const ABLATION_KEYS: Record<AblationDataset, readonly string[]> = {
  locomo: ['recall@5', 'recall@10'],
  longmemeval: ['turn_recall_all@5', 'turn_recall_all@10', 'session_recall_all@5'],
  madial: ['recall@3', 'recall@5', 'recall@10'],
};

/** Header and rows: each pass's figures and, for the first key, the change against all techniques. */
export function ablationRows(dataset: AblationDataset, r: AblationDatasetResult): { header: string[]; rows: (string | number)[][] } {
  const keys = ABLATION_KEYS[dataset];
  const first = keys[0] as string;
  const all = r.passes[ALL_TECHNIQUES]?.[first] ?? Number.NaN;
  const rows = Object.entries(r.passes).map(([name, m]) => {
    const delta = (m[first] ?? Number.NaN) - all;
    return [name, ...keys.map((k) => m[k] ?? Number.NaN), name === ALL_TECHNIQUES ? '' : `${delta >= 0 ? '+' : ''}${delta.toFixed(3)}`];
  });
  return { header: ['pass', ...keys, `Δ ${first}`], rows };
}

/** Run directly: the recall benchmark's CLI in ablation mode. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!process.argv.includes('--ablation')) process.argv.push('--ablation');
  // Not awaited: run.ts imports this module, which must finish evaluating first.
  void import('./run');
}
