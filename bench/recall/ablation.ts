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
import type { ItemScores } from './evaluate';
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

/** pass name → metric → mean */
export type PassMeans = Record<string, Record<string, number>>;

/** One half of a data set: its questions, the conversations (groups) they come from, each pass's means over them. */
export interface AblationHalf {
  n: number;
  groups: number;
  passes: PassMeans;
}

export interface AblationDatasetResult {
  n: number;
  passes: PassMeans;
  elapsed_ms: number;
  /**
   * The split-half check (issue 8 judges on held-out conversations): the same passes' means on two disjoint halves
   * of the data set, split by conversation (splitHalves), from the same run. `flips`: pass → the HALF_KEYS on which
   * its change has opposite signs on the two halves, each beyond one question's worth (halfVerdict).
   */
  halves: { split: string; a: AblationHalf; b: AblationHalf; flips: Record<string, string[]> };
}

export interface AblationResult {
  datasets: Partial<Record<AblationDataset, AblationDatasetResult>>;
  notes: string[];
  machine: MachineInfo;
}

/**
 * Two disjoint halves, split by group (conversation), never by question: the groups in order of first appearance
 * (file order) go alternately to A and B (1st, 3rd, 5th … → A; 2nd, 4th … → B), with all their questions. A fixed
 * rule chosen before any result was seen: no randomness, no tuning, and the halves differ by at most one group.
 */
export function splitHalves<T>(items: readonly T[], groupOf: (item: T) => string): { a: T[]; b: T[] } {
  const order = new Map<string, number>();
  const out = { a: [] as T[], b: [] as T[] };
  for (const item of items) {
    const group = groupOf(item);
    const index = order.get(group) ?? order.size;
    order.set(group, index);
    (index % 2 === 0 ? out.a : out.b).push(item);
  }
  return out;
}

/** What the split is on each data set (stored beside the halves). */
export const HALF_SPLIT: Record<AblationDataset, string> = {
  locomo: 'by conversation (sample): conversations in file order, alternately to A and B, with all their questions',
  longmemeval:
    'by question id: each question has a haystack of its own, so a question is its own conversation; scored questions in file order, alternately to A and B',
  madial: "by user: a user's memories are shared by all their dialogues, so the user is the unit; users in order of their first dialogue, alternately to A and B",
};

function passMeans(items: readonly ItemScores[], passes: readonly ProductPass[]): PassMeans {
  const out: PassMeans = {};
  for (const p of passes) {
    const mean = averageScores(items.map((i) => i.systems[p.name]?.shown ?? {}));
    out[p.name] = Object.fromEntries(Object.entries(mean).map(([k, v]) => [k, round(v, 4)]));
  }
  return out;
}

export function ablationOf(run: DatasetRun, passes: readonly ProductPass[], elapsedMs: number): AblationDatasetResult {
  const { a, b } = splitHalves(run.items, (i) => i.group);
  const half = (items: readonly ItemScores[]): AblationHalf => ({ n: items.length, groups: new Set(items.map((i) => i.group)).size, passes: passMeans(items, passes) });
  const halves = { split: HALF_SPLIT[run.dataset], a: half(a), b: half(b) };
  return {
    n: run.items.length,
    passes: passMeans(run.items, passes),
    elapsed_ms: Math.round(elapsedMs),
    halves: { ...halves, flips: flipsOf(run.dataset, halves) },
  };
}

export const ABLATION_NOTES = [
  'each pass is the product path (recall.search / memory.retrieve) over the same stored data, k results shown',
  'a pass switches techniques off in EngineEnv.retrieval, the config object the app uses with its defaults',
  'turn-recall techniques are ablated on LoCoMo and LongMemEval, memory-retrieval techniques on MADial',
  'halves: the same run split into two disjoint halves by conversation (halves.split); a change "flips" when it has opposite signs on A and B and exceeds one question\'s worth (1/n of that half, +0.0001 for rounding) on each',
];

/** The figures the ablation table shows per data set (the goals). */
export const ABLATION_KEYS: Record<AblationDataset, readonly string[]> = {
  locomo: ['recall@5', 'recall@10'],
  longmemeval: ['turn_recall_all@5', 'turn_recall_all@10', 'session_recall_all@5'],
  madial: ['recall@3', 'recall@5', 'recall@10'],
};

/** Header and rows: each pass's figures and, for the first key, the change against all techniques. */
export function ablationRows(dataset: AblationDataset, r: Pick<AblationDatasetResult, 'passes'>): { header: string[]; rows: (string | number)[][] } {
  const keys = ABLATION_KEYS[dataset];
  const first = keys[0] as string;
  const all = r.passes[ALL_TECHNIQUES]?.[first] ?? Number.NaN;
  const rows = Object.entries(r.passes).map(([name, m]) => {
    const delta = (m[first] ?? Number.NaN) - all;
    return [name, ...keys.map((k) => m[k] ?? Number.NaN), name === ALL_TECHNIQUES ? '' : `${delta >= 0 ? '+' : ''}${delta.toFixed(3)}`];
  });
  return { header: ['pass', ...keys, `Δ ${first}`], rows };
}

/** The figures the split-half check compares: the first goal metric and the other @5 goals. */
const firstAndAt5 = (keys: readonly string[]) => keys.filter((k, i) => i === 0 || k.endsWith('@5'));
export const HALF_KEYS: Record<AblationDataset, readonly string[]> = {
  locomo: firstAndAt5(ABLATION_KEYS.locomo),
  longmemeval: firstAndAt5(ABLATION_KEYS.longmemeval),
  madial: firstAndAt5(ABLATION_KEYS.madial),
};

/** Stored means carry four decimals, so a difference of two of them may be off by this much. */
const ROUNDING = 1e-4;

/**
 * One question's worth: every per-question score lies in [0, 1], so one question changing moves a half's mean by at
 * most 1/n. A change no larger than that (plus rounding) is one question's noise, and its sign is no evidence.
 */
export const beyondOneQuestion = (delta: number, n: number): boolean => Math.abs(delta) > 1 / n + ROUNDING;

/**
 * What a pass's change (switched off − all on) does on the two halves: `holds` the same sign on both, each beyond one
 * question; `flips` opposite signs, each beyond one question (the technique's contribution reverses: suspect of
 * fitting); `A only` / `B only` beyond one question on that half alone; `noise` on neither.
 */
export type HalfVerdict = 'holds' | 'flips' | 'A only' | 'B only' | 'noise';

export function halfVerdict(a: { delta: number; n: number }, b: { delta: number; n: number }): HalfVerdict {
  const inA = beyondOneQuestion(a.delta, a.n);
  const inB = beyondOneQuestion(b.delta, b.n);
  if (inA && inB) return Math.sign(a.delta) === Math.sign(b.delta) ? 'holds' : 'flips';
  return inA ? 'A only' : inB ? 'B only' : 'noise';
}

/** A pass's change on one key against all techniques, on a set of means (NaN when either is missing). */
const deltaOf = (passes: PassMeans, pass: string, key: string): number =>
  round((passes[pass]?.[key] ?? Number.NaN) - (passes[ALL_TECHNIQUES]?.[key] ?? Number.NaN), 4);

function verdictOf(halves: { a: AblationHalf; b: AblationHalf }, pass: string, key: string): HalfVerdict {
  return halfVerdict({ delta: deltaOf(halves.a.passes, pass, key), n: halves.a.n }, { delta: deltaOf(halves.b.passes, pass, key), n: halves.b.n });
}

function flipsOf(dataset: AblationDataset, halves: { a: AblationHalf; b: AblationHalf }): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pass of Object.keys(halves.a.passes)) {
    if (pass === ALL_TECHNIQUES) continue;
    const keys = HALF_KEYS[dataset].filter((k) => verdictOf(halves, pass, k) === 'flips');
    if (keys.length) out[pass] = keys;
  }
  return out;
}

/** Three decimals with a sign; a change that rounds to zero is shown as 0.000, not −0.000 or +0.000. */
const signed = (d: number) => (Number.isNaN(d) ? '–' : Math.abs(d) < 0.0005 ? '0.000' : `${d > 0 ? '+' : ''}${d.toFixed(3)}`);

/** Per pass and HALF_KEY: the change on the whole set, on half A, on half B, and the verdict. */
export function halfRows(dataset: AblationDataset, r: AblationDatasetResult): { header: string[]; rows: string[][] } {
  const keys = HALF_KEYS[dataset];
  const { a, b } = r.halves;
  const header = ['pass', ...keys.flatMap((k) => [`Δ ${k}`, `A (n ${a.n})`, `B (n ${b.n})`, 'halves'])];
  const rows = Object.keys(r.passes)
    .filter((p) => p !== ALL_TECHNIQUES)
    .map((p) => [
      p,
      ...keys.flatMap((k) => [signed(deltaOf(r.passes, p, k)), signed(deltaOf(a.passes, p, k)), signed(deltaOf(b.passes, p, k)), verdictOf(r.halves, p, k)]),
    ]);
  return { header, rows };
}

/** Run directly: the recall benchmark's CLI in ablation mode. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!process.argv.includes('--ablation')) process.argv.push('--ablation');
  // Not awaited: run.ts imports this module, which must finish evaluating first.
  void import('./run');
}
