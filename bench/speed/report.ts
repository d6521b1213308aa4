import type { MachineInfo } from '../lib/machine';
import { median, round, summarize, type LatencySummary } from '../lib/stats';
import { markdownTable, textTable, type Cell } from '../lib/table';
import type { BrowserSizeReport } from './browser-run';
import type { EpisodeReport } from './episodes';
import { THRESHOLDS } from './thresholds';

/** The speed report's JSON (bench/results/speed.json). Latencies in ms, sizes in bytes. */
export interface SpeedSize {
  turns: number;
  sessions: number;
  fill: { prefilled_natively: number; appended_through_ui: number; ui_wall_ms: number; prefill_import_ms: number | null };
  store_turn_ms: LatencySummary;
  session_create_ms: LatencySummary;
  store_memory_ms: LatencySummary;
  recall_ms: Record<'all' | 'symbol' | 'zh' | 'en' | 'mixed', LatencySummary>;
  memory_retrieve_ms: LatencySummary;
  memory_list_ms: LatencySummary;
  summary_10_ms: LatencySummary;
  /** summary.roll for one conversation after its turns (the jobs worker's pass); `created` summaries in all. */
  summary_roll_ms: LatencySummary & { created: number };
  cold_start_ms: { runs: number[]; median: number };
  /** Issue 16: the median of each startup stage (ms from navigation start), the bare floor's, and cold ÷ bare. */
  cold_start_stages?: { engram: Record<string, number>; bare: Record<string, number>; bare_runs: number[]; bare_median: number; engram_over_bare: number };
  /** Issue 16: send → request leaves, reply done → stored, through turn.prepare / turn.finish. */
  send_overhead?: { send_to_request_ms: LatencySummary; reply_to_stored_ms: LatencySummary; calls_per_turn: number; send_p95_over_recall_p95: number } | null;
  /** Issue 16: the longest wait of a foreground call while each background job runs. */
  stalls?: { job: string; job_ms: number; probes: number; max_wait_ms: number; p95_wait_ms: number; detail: Record<string, number> }[];
  storage: { db_bytes: number; text_bytes: number; bytes_per_turn: number; text_bytes_per_turn: number; overhead_bytes_per_turn: number };
  worker_heap: { js_heap_used: number | null; js_heap_total: number | null; wasm_memory: number | null; sqlite_memory_used: number | null; sqlite_memory_highwater: number | null };
  peers: Record<string, { docs: number; build_ms: number; heap_bytes: number | null; query_ms: LatencySummary; engram_over_peer_p50: number; engram_over_peer_p95: number }>;
  native: { store_turn_ms: LatencySummary; recall_ms: LatencySummary; db_bytes: number; wasm_over_native: { store_p50: number; store_p95: number; recall_p50: number; recall_p95: number } };
  /** Seed 003's calls at scale (issue 17), measured at the largest size only. */
  episodes?: EpisodeFigures;
  /** The machine's 1-minute load average while this size ran (sampled every 10 s): min / median / max. */
  load?: { min: number; median: number; max: number; samples: number };
}

export interface EpisodeFigures {
  count: number;
  rules: number;
  record_ms: LatencySummary;
  query_ms: LatencySummary;
  rules_list_ms: LatencySummary;
  /**
   * p95 over the same run's stand-in calls: memory.create, memory.retrieve, memory.list. The list ratio's memory.list
   * is timed alternately with rules.list (memory_list_paired_ms) when the run has those samples.
   */
  over_memory_p95: { record: number; query: number; list: number };
  /** memory.list timed alternately with rules.list (episodes.ts); absent in results from before it was measured. */
  memory_list_paired_ms?: LatencySummary;
  /** memory.create after every n-th episode.record and memory.retrieve alternately with episode.query (episodes.ts). */
  memory_create_paired_ms?: LatencySummary;
  memory_retrieve_paired_ms?: LatencySummary;
  /**
   * An additional reference (issue 17), not the goal's ratio: episode.query paired again with memory.retrieve once the
   * store holds as many memories as there are episodes (episodes.ts), and that p95 ratio.
   */
  at_scale?: { memories: number; query_ms: LatencySummary; memory_retrieve_ms: LatencySummary; query_over_retrieve_p95: number };
  typing: { event_lag_alone_ms: LatencySummary; event_lag_after_record_ms: LatencySummary; save_alone_ms: LatencySummary; save_after_record_ms: LatencySummary };
  wall_ms: number;
}

export interface SpeedResult {
  machine: MachineInfo & { chromium: string };
  config: Record<string, unknown>;
  sizes: SpeedSize[];
  checks: { id: string; source: string; what: string; limit: number; unit: string; measured: number | null; at: string; pass: boolean | null }[];
  notes: string[];
  elapsed_ms: number;
  /** When sizes come from more than one run (`--merge`): which run measured which sizes (merge.ts). */
  runs?: { sizes: number[]; machine: MachineInfo & { chromium: string }; elapsed_ms: number }[];
}

const r = (s: LatencySummary): LatencySummary => ({ n: s.n, p50: round(s.p50), p95: round(s.p95), p99: round(s.p99), mean: round(s.mean), max: round(s.max) });
const lat = (values: readonly number[]) => r(summarize(values));
const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);

/**
 * Seed 003's figures (issue 17) and their ratios to the stand-in calls' p95s. Each ratio divides by its memory.* call
 * timed in the episode phase itself (memory.create between the records, memory.retrieve alternately with episode.query,
 * memory.list alternately with rules.list) when the run has those samples (episodes.ts says why), else by the
 * stand-in phase's.
 */
export function episodeSection(e: EpisodeReport, memory: { create: LatencySummary; retrieve: LatencySummary; list: LatencySummary }): EpisodeFigures {
  const record = lat(e.recordMs);
  const query = lat(e.queryMs);
  const list = lat(e.rulesListMs);
  const pairedList = e.memoryListPairedMs.length ? lat(e.memoryListPairedMs) : undefined;
  const pairedCreate = e.memoryCreatePairedMs.length ? lat(e.memoryCreatePairedMs) : undefined;
  const pairedRetrieve = e.memoryRetrievePairedMs.length ? lat(e.memoryRetrievePairedMs) : undefined;
  const atScale = e.queryAtScaleMs?.length && e.memoryRetrieveAtScaleMs?.length
    ? { memories: e.memoriesAtScale ?? 0, query_ms: lat(e.queryAtScaleMs), memory_retrieve_ms: lat(e.memoryRetrieveAtScaleMs) }
    : undefined;
  return {
    count: e.count,
    rules: e.rules,
    record_ms: record,
    query_ms: query,
    rules_list_ms: list,
    over_memory_p95: {
      record: ratio(record.p95, (pairedCreate ?? memory.create).p95),
      query: ratio(query.p95, (pairedRetrieve ?? memory.retrieve).p95),
      list: ratio(list.p95, (pairedList ?? memory.list).p95),
    },
    ...(pairedList ? { memory_list_paired_ms: pairedList } : {}),
    ...(pairedCreate ? { memory_create_paired_ms: pairedCreate } : {}),
    ...(pairedRetrieve ? { memory_retrieve_paired_ms: pairedRetrieve } : {}),
    ...(atScale ? { at_scale: { ...atScale, query_over_retrieve_p95: ratio(atScale.query_ms.p95, atScale.memory_retrieve_ms.p95) } } : {}),
    typing: {
      event_lag_alone_ms: lat(e.eventLagAloneMs),
      event_lag_after_record_ms: lat(e.eventLagAfterRecordMs),
      save_alone_ms: lat(e.saveAloneMs),
      save_after_record_ms: lat(e.saveAfterRecordMs),
    },
    wall_ms: Math.round(e.wallMs),
  };
}

export function sizeReport(opts: {
  turns: number;
  sessions: number;
  prefilled: number;
  /** UTF-8 bytes of all the turns' text. */
  textBytes: number;
  browser: BrowserSizeReport;
  native: { storeMs: number[]; recallMs: number[]; dbBytes: number };
}): SpeedSize {
  const b = opts.browser;
  const byKind = (kind?: string) => lat(b.recall.filter((x) => !kind || x.kind === kind).map((x) => x.ms));
  const recall = { all: byKind(), symbol: byKind('symbol'), zh: byKind('zh'), en: byKind('en'), mixed: byKind('mixed') };
  const store = lat(b.fill.storeMs);
  const nativeStore = lat(opts.native.storeMs);
  const nativeRecall = lat(opts.native.recallMs);
  const textPerTurn = opts.textBytes / opts.turns;
  const memoryCreate = lat(b.memoryCreateMs);
  const memoryRetrieve = lat(b.memoryRetrieveMs);
  const memoryList = lat(b.memoryListMs);
  const episodes = b.episodes ? episodeSection(b.episodes, { create: memoryCreate, retrieve: memoryRetrieve, list: memoryList }) : undefined;
  const stageMedians = (runs: Record<string, number>[]) =>
    Object.fromEntries([...new Set(runs.flatMap((r) => Object.keys(r)))].map((k) => [k, round(median(runs.map((r) => r[k] ?? Number.NaN).filter((v) => !Number.isNaN(v))), 1)]));
  const bareMedian = median(b.bareStartMs);
  const send = b.turns ? lat(b.turns.sendToRequestMs) : null;
  return {
    turns: opts.turns,
    sessions: opts.sessions,
    fill: { prefilled_natively: opts.prefilled, appended_through_ui: b.fill.turns, ui_wall_ms: Math.round(b.fill.wallMs), prefill_import_ms: b.prefill ? Math.round(b.prefill.wallMs) : null },
    store_turn_ms: store,
    session_create_ms: lat(b.fill.sessionCreateMs),
    store_memory_ms: memoryCreate,
    recall_ms: recall,
    memory_retrieve_ms: memoryRetrieve,
    memory_list_ms: memoryList,
    summary_10_ms: lat(b.summaryMs),
    summary_roll_ms: { ...lat(b.roll.ms), created: b.roll.created },
    cold_start_ms: { runs: b.coldStartMs.map((v) => round(v, 1)), median: round(median(b.coldStartMs), 1) },
    cold_start_stages: {
      engram: stageMedians(b.coldStages),
      bare: stageMedians(b.bareStages),
      bare_runs: b.bareStartMs.map((v) => round(v, 1)),
      bare_median: round(bareMedian, 1),
      engram_over_bare: ratio(median(b.coldStartMs), bareMedian),
    },
    send_overhead:
      b.turns && send
        ? {
            send_to_request_ms: send,
            reply_to_stored_ms: lat(b.turns.replyToStoredMs),
            calls_per_turn: round(b.turns.callsPerTurn, 2),
            send_p95_over_recall_p95: ratio(send.p95, recall.all.p95),
          }
        : null,
    stalls: b.stalls.map((x) => ({ job: x.job, job_ms: Math.round(x.jobMs), probes: x.probes, max_wait_ms: round(x.maxWaitMs), p95_wait_ms: round(x.p95WaitMs), detail: x.detail })),
    storage: {
      db_bytes: b.dbBytes,
      text_bytes: opts.textBytes,
      bytes_per_turn: Math.round(b.dbBytes / opts.turns),
      text_bytes_per_turn: Math.round(textPerTurn),
      overhead_bytes_per_turn: Math.round(b.dbBytes / opts.turns - textPerTurn),
    },
    worker_heap: {
      js_heap_used: b.workerHeap?.jsHeapUsed ?? null,
      js_heap_total: b.workerHeap?.jsHeapTotal ?? null,
      wasm_memory: b.sqliteMemory?.wasmMemory ?? null,
      sqlite_memory_used: b.sqliteMemory?.memoryUsed ?? null,
      sqlite_memory_highwater: b.sqliteMemory?.memoryHighwater ?? null,
    },
    peers: Object.fromEntries(
      b.peers.map((p) => {
        const q = lat(p.queryMs);
        return [p.name, { docs: p.docs, build_ms: Math.round(p.buildMs), heap_bytes: p.heapBytes, query_ms: q, engram_over_peer_p50: ratio(recall.all.p50, q.p50), engram_over_peer_p95: ratio(recall.all.p95, q.p95) }];
      }),
    ),
    native: {
      store_turn_ms: nativeStore,
      recall_ms: nativeRecall,
      db_bytes: opts.native.dbBytes,
      wasm_over_native: {
        store_p50: ratio(store.p50, nativeStore.p50),
        store_p95: ratio(store.p95, nativeStore.p95),
        recall_p50: ratio(recall.all.p50, nativeRecall.p50),
        recall_p95: ratio(recall.all.p95, nativeRecall.p95),
      },
    },
    ...(episodes ? { episodes } : {}),
  };
}

/** The measured value each threshold reads, from the largest size unless the metric names its size. */
export function checks(sizes: readonly SpeedSize[]): SpeedResult['checks'] {
  const largest = sizes.at(-1);
  const at = (n: number) => sizes.find((s) => s.turns === n);
  const value = (metric: string): { measured: number | null; at: string } => {
    const [name, size] = metric.split('@');
    const s = size ? at(Number(size)) : largest;
    if (!s) return { measured: null, at: size ? `${Number(size).toLocaleString('en')} turns (not run)` : '–' };
    // Episodes are recorded at a run's largest size only: a merged file's largest size may come from a run without them.
    const e = size ? s.episodes : [...sizes].reverse().find((x) => x.episodes)?.episodes;
    if (name?.startsWith('episode') || name?.startsWith('rules_list')) {
      if (!e) return { measured: null, at: 'episodes not run' };
      const ev: Record<string, number> = {
        episode_record_p95_ms: e.record_ms.p95,
        episode_query_p95_ms: e.query_ms.p95,
        rules_list_p95_ms: e.rules_list_ms.p95,
        episode_record_over_memory_create: e.over_memory_p95.record,
        episode_query_over_memory_retrieve: e.over_memory_p95.query,
        rules_list_over_memory_list: e.over_memory_p95.list,
        episode_typing_lag_p95_delta_ms: round(e.typing.event_lag_after_record_ms.p95 - e.typing.event_lag_alone_ms.p95),
      };
      return { measured: ev[name] ?? null, at: `${e.count.toLocaleString('en')} episodes` };
    }
    const v: Record<string, number> = {
      store_turn_p95_ms: s.store_turn_ms.p95,
      recall_symbol_p95_ms: s.recall_ms.symbol.p95,
      recall_p95_ms: s.recall_ms.all.p95,
      summary_10_p95_ms: s.summary_10_ms.p95,
      bytes_per_turn: s.storage.bytes_per_turn,
      overhead_bytes_per_turn: s.storage.overhead_bytes_per_turn,
      db_bytes: s.storage.db_bytes,
      memory_create_p95_ms: s.store_memory_ms.p95,
      memory_retrieve_p95_ms: s.memory_retrieve_ms.p95,
      memory_list_p95_ms: s.memory_list_ms.p95,
    };
    return { measured: v[name ?? ''] ?? null, at: `${s.turns.toLocaleString('en')} turns` };
  };
  const seeded = THRESHOLDS.map((t) => {
    const { measured, at: where } = value(t.metric);
    return { id: t.id, source: t.source, what: t.what, limit: t.limit, unit: t.unit, measured, at: where, pass: measured === null || Number.isNaN(measured) ? null : measured < t.limit || (t.id.startsWith('goal') && measured <= t.limit) };
  });
  return [...seeded, ...scaleChecks(sizes)];
}

type Check = SpeedResult['checks'][number];

/**
 * Issue 16's goals, each measured in the one run: absolute figures for the Intel machine of the committed results,
 * and the ratios that hold on any machine (the ratio is what counts).
 */
export function scaleChecks(sizes: readonly SpeedSize[]): Check[] {
  const at = (n: number) => sizes.find((s) => s.turns === n);
  const k100 = at(100_000);
  const m1 = at(1_000_000);
  const largest = sizes.at(-1);
  const out: Check[] = [];
  const add = (c: Omit<Check, 'pass' | 'source'> & { source?: string }) =>
    out.push({ source: 'issue 16', ...c, pass: c.measured === null || Number.isNaN(c.measured) ? null : c.measured <= c.limit });
  const label = (s: SpeedSize | undefined) => (s ? `${s.turns.toLocaleString('en')} turns` : 'not run');
  for (const s of [k100, largest].filter((x, i, a): x is SpeedSize => x !== undefined && a.indexOf(x) === i)) {
    add({ id: `i16-send-ratio-${s.turns}`, what: 'send → request leaves p95 ÷ recall p95', limit: 2, unit: 'x', measured: s.send_overhead?.send_p95_over_recall_p95 ?? null, at: label(s) });
    add({ id: `i16-cold-ratio-${s.turns}`, what: 'cold start ÷ bare sqlite-wasm (medians)', limit: 1.5, unit: 'x', measured: s.cold_start_stages?.engram_over_bare ?? null, at: label(s) });
    const stalls = (s.stalls ?? []).filter((x) => !x.job.startsWith('idle'));
    add({ id: `i16-stall-${s.turns}`, what: 'longest foreground wait during a background job', limit: 50, unit: 'ms', measured: stalls.length ? Math.max(...stalls.map((x) => x.max_wait_ms)) : null, at: label(s) });
  }
  add({ id: 'i16-send-100k', what: 'send → request leaves p95 (Intel machine)', limit: 25, unit: 'ms', measured: k100?.send_overhead?.send_to_request_ms.p95 ?? null, at: label(k100) });
  add({ id: 'i16-cold-100k', what: 'cold start → first recall, median (Intel machine)', limit: 300, unit: 'ms', measured: k100?.cold_start_ms.median ?? null, at: label(k100) });
  if (m1 && k100) {
    add({ id: 'i16-recall-1m', what: 'recall p95 at 1M ÷ at 100k', limit: 1.5, unit: 'x', measured: ratio(m1.recall_ms.all.p95, k100.recall_ms.all.p95), at: label(m1) });
    add({ id: 'i16-store-1m', what: 'store p95 at 1M ÷ at 100k', limit: 1.2, unit: 'x', measured: ratio(m1.store_turn_ms.p95, k100.store_turn_ms.p95), at: label(m1) });
  }
  if (m1) {
    add({ id: 'i16-native-1m', what: 'wasm ÷ native recall p95', limit: 2, unit: 'x', measured: m1.native.wasm_over_native.recall_p95, at: label(m1) });
    add({ id: 'i16-bytes-1m', what: '≤ 1 KB per turn beyond its text', limit: 1024, unit: 'B', measured: m1.storage.overhead_bytes_per_turn, at: label(m1) });
    const heap = m1.worker_heap.js_heap_used !== null && m1.worker_heap.wasm_memory !== null ? m1.worker_heap.js_heap_used + m1.worker_heap.wasm_memory : null;
    add({ id: 'i16-memory-1m', what: 'worker memory (JS heap + wasm)', limit: 64 * 2 ** 20, unit: 'B', measured: heap, at: label(m1) });
  }
  return out;
}

const STAGES = ['worker-start', 'wasm', 'pool', 'open', 'engine', 'first-call'];
const stages = (m: Record<string, number> | undefined) => (m ? STAGES.filter((k) => m[k] !== undefined).map((k) => (m[k] as number).toFixed(0)).join(' / ') : null);
const detailText = (d: Record<string, number>) => {
  const parts = Object.entries(d).map(([k, v]) => `${v} ${k}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
};

const mb = (b: number | null | undefined) => (b === null || b === undefined ? null : `${(b / 2 ** 20).toFixed(1)} MB`);

export function speedTables(res: SpeedResult, format: 'text' | 'markdown'): string {
  const table = format === 'text' ? textTable : markdownTable;
  const sizeHeader = ['', ...res.sizes.map((s) => `${s.turns.toLocaleString('en')} turns`)];
  const row = (label: string, f: (s: SpeedSize) => Cell): Cell[] => [label, ...res.sizes.map(f)];
  const p = (x: LatencySummary) => `${x.p50.toFixed(2)} / ${x.p95.toFixed(2)} / ${x.p99.toFixed(2)}`;
  const main = table(sizeHeader, [
    row('store a turn p50/p95/p99 ms', (s) => p(s.store_turn_ms)),
    row('store a memory p50/p95/p99 ms', (s) => p(s.store_memory_ms)),
    row('recall (all queries) p50/p95/p99 ms', (s) => p(s.recall_ms.all)),
    row('  symbol queries p50/p95', (s) => `${s.recall_ms.symbol.p50.toFixed(2)} / ${s.recall_ms.symbol.p95.toFixed(2)}`),
    row('  zh / en / mixed p95', (s) => `${s.recall_ms.zh.p95.toFixed(1)} / ${s.recall_ms.en.p95.toFixed(1)} / ${s.recall_ms.mixed.p95.toFixed(1)}`),
    row('memory.retrieve p50/p95 ms', (s) => `${s.memory_retrieve_ms.p50.toFixed(2)} / ${s.memory_retrieve_ms.p95.toFixed(2)}`),
    row('memory.list p50/p95 ms', (s) => `${s.memory_list_ms.p50.toFixed(2)} / ${s.memory_list_ms.p95.toFixed(2)}`),
    row('summary of 10 turns p95 ms', (s) => s.summary_10_ms.p95.toFixed(2)),
    row('background summary pass, one conversation p50/p95 ms (summaries)', (s) =>
      s.summary_roll_ms ? `${s.summary_roll_ms.p50.toFixed(2)} / ${s.summary_roll_ms.p95.toFixed(2)} (${s.summary_roll_ms.created})` : null,
    ),
    row('cold start → first recall ms (median)', (s) => s.cold_start_ms.median.toFixed(0)),
    row('  stages: worker / wasm / pool / open / engine / first recall', (s) => stages(s.cold_start_stages?.engram)),
    row('  bare sqlite-wasm: worker / wasm / pool / open / FTS query', (s) => stages(s.cold_start_stages?.bare)),
    row('  cold ÷ bare (medians)', (s) => (s.cold_start_stages ? `${s.cold_start_stages.engram_over_bare} (bare ${s.cold_start_stages.bare_median.toFixed(0)})` : null)),
    row('send → request leaves p50/p95 ms', (s) => (s.send_overhead ? `${s.send_overhead.send_to_request_ms.p50.toFixed(2)} / ${s.send_overhead.send_to_request_ms.p95.toFixed(2)}` : null)),
    row('reply done → stored p50/p95 ms', (s) => (s.send_overhead ? `${s.send_overhead.reply_to_stored_ms.p50.toFixed(2)} / ${s.send_overhead.reply_to_stored_ms.p95.toFixed(2)}` : null)),
    row('engine calls per turn; send p95 ÷ recall p95', (s) => (s.send_overhead ? `${s.send_overhead.calls_per_turn}; ${s.send_overhead.send_p95_over_recall_p95}` : null)),
    row('DB on disk', (s) => mb(s.storage.db_bytes)),
    row('bytes per turn (text + rest)', (s) => `${s.storage.bytes_per_turn} (${s.storage.text_bytes_per_turn} + ${s.storage.overhead_bytes_per_turn})`),
    row('worker JS heap / wasm memory (sqlite used)', (s) => `${mb(s.worker_heap.js_heap_used)} / ${mb(s.worker_heap.wasm_memory)} (${mb(s.worker_heap.sqlite_memory_used)})`),
    row('turns prefilled natively / through UI', (s) => `${s.fill.prefilled_natively} / ${s.fill.appended_through_ui}`),
    ...(res.sizes.some((s) => s.load) ? [row('load average while measured (min / median / max)', (s) => (s.load ? `${s.load.min} / ${s.load.median} / ${s.load.max}` : null))] : []),
  ]);
  const peerNames = [...new Set(res.sizes.flatMap((s) => Object.keys(s.peers)))];
  const peers = table(sizeHeader, [
    ...peerNames.flatMap((n) => [
      row(`${n} query p50/p95 ms`, (s) => (s.peers[n] ? `${s.peers[n].query_ms.p50.toFixed(2)} / ${s.peers[n].query_ms.p95.toFixed(2)}` : null)),
      row(`${n} build s / heap`, (s) => (s.peers[n] ? `${(s.peers[n].build_ms / 1000).toFixed(1)} / ${mb(s.peers[n].heap_bytes)}` : null)),
      row(`engram ÷ ${n} (p50, p95)`, (s) => (s.peers[n] ? `${s.peers[n].engram_over_peer_p50} / ${s.peers[n].engram_over_peer_p95}` : null)),
    ]),
    row('native store p50/p95 ms', (s) => `${s.native.store_turn_ms.p50.toFixed(2)} / ${s.native.store_turn_ms.p95.toFixed(2)}`),
    row('native recall p50/p95 ms', (s) => `${s.native.recall_ms.p50.toFixed(2)} / ${s.native.recall_ms.p95.toFixed(2)}`),
    row('wasm ÷ native store (p50, p95)', (s) => `${s.native.wasm_over_native.store_p50} / ${s.native.wasm_over_native.store_p95}`),
    row('wasm ÷ native recall (p50, p95)', (s) => `${s.native.wasm_over_native.recall_p50} / ${s.native.wasm_over_native.recall_p95}`),
  ]);
  const jobs = [...new Set(res.sizes.flatMap((s) => (s.stalls ?? []).map((x) => x.job)))];
  const stallTable = table(
    sizeHeader.map((h, i) => (i === 0 ? 'longest foreground wait ms (p95) · job time' : h)),
    jobs.map((j) =>
      row(j, (s) => {
        const x = s.stalls?.find((y) => y.job === j);
        return x ? `${x.max_wait_ms.toFixed(1)} (${x.p95_wait_ms.toFixed(1)}) · ${(x.job_ms / 1000).toFixed(1)} s${detailText(x.detail)}` : null;
      }),
    ),
  );
  const fmt = (v: number | null, unit: string) => (v === null ? null : unit === 'x' ? `${v.toFixed(2)}×` : unit === 'B' ? (v >= 1_048_576 ? mb(v) : `${Math.round(v)} B`) : `${v.toFixed(2)} ms`);
  const thr = table(
    ['threshold', 'source', 'limit', 'measured', 'at', 'met'],
    res.checks.map((c) => [c.what, c.source, fmt(c.limit, c.unit), fmt(c.measured, c.unit), c.at, c.pass === null ? '–' : c.pass ? 'yes' : 'NO']),
  );
  const sections = [main, '', peers, ''];
  if (jobs.length) sections.push(stallTable, '');
  const withEpisodes = res.sizes.filter((x) => x.episodes);
  const episodes = withEpisodes.length
    ? table(['seed 003 (issue 17)', ...withEpisodes.map((x) => `${x.episodes?.count.toLocaleString('en')} episodes (${x.turns.toLocaleString('en')} turns)`)], [
        ['episode.record p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).record_ms))],
        ['episode.query p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).query_ms))],
        ['rules.list p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).rules_list_ms))],
        ['memory.create between the records p50/p95/p99 ms', ...withEpisodes.map((x) => { const m = (x.episodes as EpisodeFigures).memory_create_paired_ms; return m ? p(m) : '–'; })],
        ['memory.retrieve alternating with episode.query p50/p95/p99 ms', ...withEpisodes.map((x) => { const m = (x.episodes as EpisodeFigures).memory_retrieve_paired_ms; return m ? p(m) : '–'; })],
        ['memory.list alternating with rules.list p50/p95/p99 ms', ...withEpisodes.map((x) => { const m = (x.episodes as EpisodeFigures).memory_list_paired_ms; return m ? p(m) : '–'; })],
        ['÷ memory.create / .retrieve / .list (p95)', ...withEpisodes.map((x) => { const o = (x.episodes as EpisodeFigures).over_memory_p95; return `${o.record} / ${o.query} / ${o.list}`; })],
        ['reference: episode.query → memory.retrieve over as many memories as episodes p50/p95/p99 ms (÷ p95)', ...withEpisodes.map((x) => { const a = (x.episodes as EpisodeFigures).at_scale; return a ? `${p(a.query_ms)} → ${p(a.memory_retrieve_ms)} at ${a.memories.toLocaleString('en')} memories (${a.query_over_retrieve_p95}×)` : '–'; })],
        ['typing: main-thread event lag p50/p95 ms, alone → after a record', ...withEpisodes.map((x) => { const ty = (x.episodes as EpisodeFigures).typing; return `${ty.event_lag_alone_ms.p50.toFixed(2)} / ${ty.event_lag_alone_ms.p95.toFixed(2)} → ${ty.event_lag_after_record_ms.p50.toFixed(2)} / ${ty.event_lag_after_record_ms.p95.toFixed(2)}`; })],
        ['chapter save p50/p95 ms, alone → behind a record', ...withEpisodes.map((x) => { const ty = (x.episodes as EpisodeFigures).typing; return `${ty.save_alone_ms.p50.toFixed(2)} / ${ty.save_alone_ms.p95.toFixed(2)} → ${ty.save_after_record_ms.p50.toFixed(2)} / ${ty.save_after_record_ms.p95.toFixed(2)}`; })],
      ])
    : null;
  if (episodes) sections.push(episodes, '');
  return [...sections, thr].join('\n');
}

