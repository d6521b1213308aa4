import { round } from '../lib/stats';
import type { MachineInfo } from '../lib/machine';
import { textTable, type Cell } from '../lib/table';
import { BASELINE_NAMES } from './baseline-runs';
import type { DatasetRun } from './datasets/common';
import { aggregate } from './evaluate';

/** The metric keys of each data set, in the order the issue lists them. */
export const METRIC_KEYS = {
  locomo: ['recall@5', 'recall@10'],
  longmemeval: [
    'session_recall_all@5',
    'session_recall_all@10',
    'session_recall_any@5',
    'session_ndcg@10',
    'turn_recall_all@5',
    'turn_recall_all@10',
    'turn_recall_any@5',
    'turn_ndcg@10',
  ],
  madial: ['recall@3', 'recall@5', 'recall@10'],
} as const;

/** The plain FTS5 floor of /work/shared/bench/README.md, printed beside ours (a reproduction check). */
export const README_FLOOR: Record<DatasetRun['dataset'], Record<string, number>> = {
  locomo: { 'recall@5': 0.534, 'recall@10': 0.622 },
  longmemeval: { 'turn_recall_all@5': 0.646, 'turn_recall_all@10': 0.812, 'session_recall_all@5': 0.917, 'session_recall_all@10': 0.958 },
  madial: { 'recall@3': 0.425, 'recall@5': 0.476, 'recall@10': 0.573 },
};

export interface RecallResult {
  dataset: DatasetRun['dataset'];
  n: number;
  metrics: Record<string, number>;
  per_category: Record<string, Record<string, number>>;
  baselines: Record<string, Record<string, number>>;
  elapsed_ms: number;
  baselines_per_category: Record<string, Record<string, Record<string, number>>>;
  /** Labelled alternative view (see bench/README.md): ask for 50, keep the first k units. */
  top50_first_k?: { engram: Record<string, number>; baselines: Record<string, Record<string, number>> };
  readme_fts5_floor: Record<string, number>;
  timings_ms: Record<string, number>;
  data: string[];
  notes: string[];
  machine: MachineInfo;
}

const roundAll = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, round(v, 4)]));
const roundNested = (m: Record<string, Record<string, number>>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, roundAll(v)]));

export function toResult(run: DatasetRun, extra: { elapsedMs: number; data: string[]; machine: MachineInfo }): RecallResult {
  const agg = aggregate(run.items, BASELINE_NAMES);
  const hasTop50 = Object.keys(agg.top50_first_k.engram).length > 0;
  return {
    dataset: run.dataset,
    n: agg.n,
    metrics: roundAll(agg.metrics),
    per_category: roundNested(agg.per_category),
    baselines: roundNested(agg.baselines),
    elapsed_ms: Math.round(extra.elapsedMs),
    baselines_per_category: Object.fromEntries(Object.entries(agg.baselines_per_category).map(([b, c]) => [b, roundNested(c)])),
    ...(hasTop50 ? { top50_first_k: { engram: roundAll(agg.top50_first_k.engram), baselines: roundNested(agg.top50_first_k.baselines) } } : {}),
    readme_fts5_floor: README_FLOOR[run.dataset],
    timings_ms: Object.fromEntries([...run.timings].map(([k, v]) => [k, Math.round(v)])),
    data: extra.data,
    notes: run.notes,
    machine: extra.machine,
  };
}

/** The rows of the summary table: each system's metrics under the data set's keys. */
export function summaryRows(r: RecallResult): Cell[][] {
  const keys = METRIC_KEYS[r.dataset];
  const row = (name: string, m: Record<string, number> | undefined): Cell[] => [name, ...keys.map((k) => m?.[k])];
  const rows = [row('engram (k shown)', r.metrics)];
  if (r.top50_first_k) rows.push(row('engram (top 50 → first k)', r.top50_first_k.engram));
  for (const [name, m] of Object.entries(r.baselines)) rows.push(row(name, m));
  rows.push(row('README FTS5 floor', r.readme_fts5_floor));
  return rows;
}

export function categoryRows(r: RecallResult): { header: string[]; rows: Cell[][] } {
  const keys = METRIC_KEYS[r.dataset];
  const systems = ['engram', ...Object.keys(r.baselines)];
  const rows: Cell[][] = [];
  for (const [cat, m] of Object.entries(r.per_category)) {
    rows.push([cat, m.n, ...systems.flatMap((s) => [(s === 'engram' ? m : r.baselines_per_category[s]?.[cat])?.[keys[0]]])]);
  }
  return { header: ['category', 'n', ...systems.map((s) => `${s} ${keys[0]}`)], rows };
}

export function printResult(r: RecallResult): string {
  const keys = METRIC_KEYS[r.dataset];
  const cats = categoryRows(r);
  return [
    `${r.dataset}: n = ${r.n}, ${(r.elapsed_ms / 1000).toFixed(1)} s`,
    textTable(['system', ...keys], summaryRows(r)),
    '',
    textTable(cats.header, cats.rows),
  ].join('\n');
}

/**
 * One row per scored question (`--per-item <file.json>`): its place in the run, its group and category, and the
 * product's scores (k shown). Two runs of the same data — two commits, or two configs — compared row by row
 * (`changedItems`) say which questions a change won or lost, not only by how much the mean moved.
 */
export interface ItemRow {
  i: number;
  group: string;
  category: string;
  scores: Record<string, number>;
}

export function itemRows(run: Pick<DatasetRun, 'items'>, system = 'engram'): ItemRow[] {
  return run.items.map((item, i) => ({ i, group: item.group, category: item.category, scores: roundAll(item.systems[system]?.shown ?? {}) }));
}

/**
 * The rows whose `metric` differs between two per-item files of the same data (matched by place and group; a row
 * of one with no partner in the other is an error: the files are not of the same questions).
 */
export function changedItems(before: readonly ItemRow[], after: readonly ItemRow[], metric: string): { i: number; group: string; category: string; before: number; after: number }[] {
  if (before.length !== after.length) throw new Error(`per-item files differ in length (${before.length} vs ${after.length}): not the same questions`);
  return before.flatMap((b, i) => {
    const a = after[i];
    if (!a || a.group !== b.group) throw new Error(`row ${i}: group ${b.group} vs ${a?.group}: not the same questions`);
    const x = b.scores[metric] ?? Number.NaN;
    const y = a.scores[metric] ?? Number.NaN;
    return x === y ? [] : [{ i, group: b.group, category: b.category, before: x, after: y }];
  });
}
