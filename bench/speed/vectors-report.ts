/**
 * The vectors mode's results (bench/results/speed-vectors.json, vectors-run.ts) and their section of latest.md,
 * with issue 18's goal at 100,000 turns: recall p95 with vectors ≤ 1.2 × lexical, store p95 unchanged within noise,
 * ≤ 0.6 KB more per turn at 384 dimensions.
 */
import type { machineInfo } from '../lib/machine';
import { machineLine } from '../lib/machine';
import type { LatencySummary } from '../lib/stats';
import { markdownTable } from '../lib/table';

export interface VectorsSize {
  turns: number;
  dims: number;
  vectors_stored: number;
  fill_wall_ms: number;
  db_bytes_before: number;
  db_bytes_after: number;
  bytes_per_vector: number;
  first_meaning_recall_ms: number;
  /** meaning_typed: the question embedded beforehand by embeddings.prepare (absent in results from before it existed). */
  recall_ms: { lexical: LatencySummary; meaning: LatencySummary; lexical_repeat: LatencySummary; meaning_cached: LatencySummary; meaning_typed?: LatencySummary };
  /**
   * p95 with the meaning lane ÷ p95 lexical only: first asks (with the question's embedding round trip), repeats
   * (cached), and first asks of a question embedded while it was typed (÷ the lexical first asks).
   */
  recall_p95_ratio: number;
  recall_p95_ratio_cached: number;
  recall_p95_ratio_typed?: number;
  store_ms: { lexical: LatencySummary; with_vectors: LatencySummary };
  store_p95_ratio: number;
  embedded_during_store: number;
  meaning_states: Record<string, number>;
  mean_results: { lexical: number; meaning: number };
  endpoint_requests: number;
  /**
   * Where the meaning asks' lanes spent their time (the engine's query.semantic.timing; absent in older results):
   * per figure its p50 / p95 over the first asks and the cached repeats, and where the searches ran.
   */
  lane_profile?: { first: LaneProfile; cached: LaneProfile };
  /** V8 used heap (bytes, after a GC) of the DB worker and the vector-search worker at the end of the size's run. */
  js_heap_used?: { db_worker: number | null; vectors_worker: number | null };
  /** Their ArrayBuffer backing stores (bytes; where the vectors' typed arrays live, outside the JS heap). */
  array_buffers?: { db_worker: number | null; vectors_worker: number | null };
  /**
   * Every WebAssembly.Memory each worker holds (bytes, wasm-memory.ts; absent in older results): the dot kernel's rows
   * in the vector-search worker, counted by neither figure above. The DB worker's is not read (null, worker-heap.ts).
   */
  wasm_memory?: { db_worker: number | null; vectors_worker: number | null };
  /** The vector-search worker's JS heap + ArrayBuffers + wasm memory ÷ the vectors stored (null: a figure is missing). */
  vectors_worker_bytes_per_vector?: number | null;
}

/** A worker's whole memory (JS heap + ArrayBuffers + wasm) ÷ the vectors it holds; null when a part was not read. */
export function workerBytesPerVector(parts: { jsHeap: number | null; arrayBuffers: number | null; wasm: number | null }, vectors: number): number | null {
  const { jsHeap, arrayBuffers, wasm } = parts;
  if (jsHeap === null || arrayBuffers === null || wasm === null || vectors <= 0) return null;
  return Math.round(((jsHeap + arrayBuffers + wasm) / vectors) * 10) / 10;
}

export interface LaneProfile {
  n: number;
  where: Record<string, number>;
  /** The question's embedding round trip (first asks only), the search, the lane start → answer, the recall's lexical lanes, its wait for the lane after them. */
  embed_ms: { p50: number; p95: number } | null;
  search_ms: { p50: number; p95: number };
  lane_ms: { p50: number; p95: number };
  lexical_ms: { p50: number; p95: number };
  wait_ms: { p50: number; p95: number };
}

export interface VectorsResult {
  machine: ReturnType<typeof machineInfo> & { chromium: string };
  config: { sizes: number[]; dims: number; seed: number; queries: number; rounds: number; store_turns: number; recall_limit: number };
  sizes: VectorsSize[];
  notes: string[];
  elapsed_ms: number;
  /** The machine's 1/5/15-minute load averages when the run started and ended (absent in older results). */
  load_average?: { start: number[]; end: number[] };
}

export const VECTOR_GOALS = { recallRatio: 1.2, bytesPerTurn: 0.6 * 1024 };

const ms = (s: LatencySummary) => `${s.p95.toFixed(1)} ms (p50 ${s.p50.toFixed(1)})`;
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

/** The section of latest.md: one table per size, goals checked against what was measured. */
export function vectorsSection(v: VectorsResult): string[] {
  const out = [
    '## Vectors at scale (`npm run bench:speed -- --vectors 384`)',
    '',
    `${machineLine(v.machine)}, Chromium ${v.machine.chromium} · ${(v.elapsed_ms / 1000).toFixed(0)} s · ${v.config.queries} questions × ${v.config.rounds} rounds, ${v.config.store_turns} turns stored per block`,
    '',
  ];
  for (const s of v.sizes) {
    out.push(
      `${s.turns.toLocaleString('en')} turns, ${s.vectors_stored.toLocaleString('en')} vectors of ${s.dims} dimensions (filled in ${(s.fill_wall_ms / 1000).toFixed(1)} s):`,
      '',
      markdownTable(
        ['figure', 'lexical only', 'with vectors', 'ratio', 'goal'],
        [
          ['recall p95 (question embedded through the endpoint)', ms(s.recall_ms.lexical), ms(s.recall_ms.meaning), `×${s.recall_p95_ratio}`, `≤ ×${VECTOR_GOALS.recallRatio}: ${verdict(s.recall_p95_ratio <= VECTOR_GOALS.recallRatio)}`],
          ...(s.recall_ms.meaning_typed && s.recall_p95_ratio_typed !== undefined
            ? [['recall p95 (question embedded while typed: embeddings.prepare, as the app asks)', ms(s.recall_ms.lexical), ms(s.recall_ms.meaning_typed), `×${s.recall_p95_ratio_typed}`, `≤ ×${VECTOR_GOALS.recallRatio}: ${verdict(s.recall_p95_ratio_typed <= VECTOR_GOALS.recallRatio)}`]]
            : []),
          ['recall p95 (question vector cached: the engine alone)', ms(s.recall_ms.lexical_repeat), ms(s.recall_ms.meaning_cached), `×${s.recall_p95_ratio_cached}`, `≤ ×${VECTOR_GOALS.recallRatio}: ${verdict(s.recall_p95_ratio_cached <= VECTOR_GOALS.recallRatio)}`],
          ['store p95 (message.append; with: fill running behind)', ms(s.store_ms.lexical), ms(s.store_ms.with_vectors), `×${s.store_p95_ratio}`, 'unchanged within noise'],
          ['database bytes per turn', '—', `+${s.bytes_per_vector} B`, '—', `≤ ${VECTOR_GOALS.bytesPerTurn} B: ${verdict(s.bytes_per_vector <= VECTOR_GOALS.bytesPerTurn)}`],
          ['first recall with the lane (loads the vectors)', '—', `${s.first_meaning_recall_ms} ms`, '—', '—'],
        ],
      ),
      '',
      ...laneLines(s),
      ...(s.js_heap_used ? [memoryLine(s), ''] : []),
      `Lane state over the meaning asks: ${Object.entries(s.meaning_states).map(([k, n]) => `${k} ${n}`).join(', ')}; endpoint requests ${s.endpoint_requests}; mean results ${s.mean_results.lexical} lexical, ${s.mean_results.meaning} with meaning; ${s.embedded_during_store} new turns embedded while the second store block ran.`,
      '',
    );
  }
  out.push(...v.notes.map((n) => `- ${n}`), '');
  return out;
}

const pp = (x: { p50: number; p95: number } | null) => (x ? `${x.p95.toFixed(1)} (p50 ${x.p50.toFixed(1)})` : '—');

/** The lane's profile as a table (results that have one). */
function laneLines(s: VectorsSize): string[] {
  const l = s.lane_profile;
  if (!l) return [];
  return [
    'Where the meaning lane spent its time, ms p95 (p50) — the lexical lanes run while the lane embeds and searches; the recall waits only for what is left:',
    '',
    markdownTable(
      ['asks', 'n', 'searched in', 'lexical lanes', 'embedding round trip', 'search', 'lane start → answer', 'recall waited'],
      (['first', 'cached'] as const).map((k) => [k, String(l[k].n), Object.entries(l[k].where).map(([w, n]) => `${w} ${n}`).join(', '), pp(l[k].lexical_ms), pp(l[k].embed_ms), pp(l[k].search_ms), pp(l[k].lane_ms), pp(l[k].wait_ms)]),
    ),
    '',
  ];
}

/** What each worker holds at the end: JS heap + ArrayBuffers (+ wasm memory, in results that read it). */
function memoryLine(s: VectorsSize): string {
  const heap = s.js_heap_used as NonNullable<VectorsSize['js_heap_used']>;
  const w = s.wasm_memory;
  const of = (k: 'db_worker' | 'vectors_worker') => `${mb(heap[k])} + ${mb(s.array_buffers?.[k] ?? null)}${w ? ` + ${mb(w[k])}` : ''}`;
  const perVector = s.vectors_worker_bytes_per_vector;
  return [
    `JS heap used at the end (after a GC) + ArrayBuffers${w ? ' + wasm memory' : ''}: DB worker ${of('db_worker')}, vector-search worker ${of('vectors_worker')}`,
    perVector !== undefined && perVector !== null ? ` — ${perVector} B per vector in the vector-search worker.` : '.',
  ].join('');
}

const mb = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 2 ** 20).toFixed(1)} MB`);
