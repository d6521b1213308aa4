import type { MachineInfo } from '../lib/machine';
import { median, round, summarize, type LatencySummary } from '../lib/stats';
import { markdownTable, textTable, type Cell } from '../lib/table';
import type { BrowserSizeReport } from './browser-run';
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
  storage: { db_bytes: number; text_bytes: number; bytes_per_turn: number; text_bytes_per_turn: number; overhead_bytes_per_turn: number };
  worker_heap: { js_heap_used: number | null; js_heap_total: number | null; wasm_memory: number | null; sqlite_memory_used: number | null; sqlite_memory_highwater: number | null };
  peers: Record<string, { docs: number; build_ms: number; heap_bytes: number | null; query_ms: LatencySummary; engram_over_peer_p50: number; engram_over_peer_p95: number }>;
  native: { store_turn_ms: LatencySummary; recall_ms: LatencySummary; db_bytes: number; wasm_over_native: { store_p50: number; store_p95: number; recall_p50: number; recall_p95: number } };
  /** Seed 003's calls at scale (issue 17), measured at the largest size only. */
  episodes?: EpisodeFigures;
}

export interface EpisodeFigures {
  count: number;
  rules: number;
  record_ms: LatencySummary;
  query_ms: LatencySummary;
  rules_list_ms: LatencySummary;
  /** p95 over the same run's stand-in calls: memory.create, memory.retrieve, memory.list. */
  over_memory_p95: { record: number; query: number; list: number };
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
}

const r = (s: LatencySummary): LatencySummary => ({ n: s.n, p50: round(s.p50), p95: round(s.p95), p99: round(s.p99), mean: round(s.mean), max: round(s.max) });
const lat = (values: readonly number[]) => r(summarize(values));
const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);

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
  const e = b.episodes;
  const episodes: EpisodeFigures | undefined = e
    ? (() => {
        const record = lat(e.recordMs);
        const query = lat(e.queryMs);
        const list = lat(e.rulesListMs);
        return {
          count: e.count,
          rules: e.rules,
          record_ms: record,
          query_ms: query,
          rules_list_ms: list,
          over_memory_p95: { record: ratio(record.p95, memoryCreate.p95), query: ratio(query.p95, memoryRetrieve.p95), list: ratio(list.p95, memoryList.p95) },
          typing: {
            event_lag_alone_ms: lat(e.eventLagAloneMs),
            event_lag_after_record_ms: lat(e.eventLagAfterRecordMs),
            save_alone_ms: lat(e.saveAloneMs),
            save_after_record_ms: lat(e.saveAfterRecordMs),
          },
          wall_ms: Math.round(e.wallMs),
        };
      })()
    : undefined;
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
    const e = s.episodes;
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
  return THRESHOLDS.map((t) => {
    const { measured, at: where } = value(t.metric);
    return { id: t.id, source: t.source, what: t.what, limit: t.limit, unit: t.unit, measured, at: where, pass: measured === null || Number.isNaN(measured) ? null : measured < t.limit || (t.id.startsWith('goal') && measured <= t.limit) };
  });
}

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
    row('DB on disk', (s) => mb(s.storage.db_bytes)),
    row('bytes per turn (text + rest)', (s) => `${s.storage.bytes_per_turn} (${s.storage.text_bytes_per_turn} + ${s.storage.overhead_bytes_per_turn})`),
    row('worker JS heap / wasm memory (sqlite used)', (s) => `${mb(s.worker_heap.js_heap_used)} / ${mb(s.worker_heap.wasm_memory)} (${mb(s.worker_heap.sqlite_memory_used)})`),
    row('turns prefilled natively / through UI', (s) => `${s.fill.prefilled_natively} / ${s.fill.appended_through_ui}`),
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
  const fmt = (v: number | null, unit: string) =>
    v === null ? null : unit === 'B' ? (v >= 1_048_576 ? mb(v) : `${Math.round(v)} B`) : unit === 'x' ? `${v.toFixed(2)}×` : `${v.toFixed(2)} ms`;
  const thr = table(
    ['threshold', 'source', 'limit', 'measured', 'at', 'met'],
    res.checks.map((c) => [c.what, c.source, fmt(c.limit, c.unit), fmt(c.measured, c.unit), c.at, c.pass === null ? '–' : c.pass ? 'yes' : 'NO']),
  );
  const withEpisodes = res.sizes.filter((x) => x.episodes);
  const episodes = withEpisodes.length
    ? table(['seed 003 (issue 17)', ...withEpisodes.map((x) => `${x.episodes?.count.toLocaleString('en')} episodes (${x.turns.toLocaleString('en')} turns)`)], [
        ['episode.record p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).record_ms))],
        ['episode.query p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).query_ms))],
        ['rules.list p50/p95/p99 ms', ...withEpisodes.map((x) => p((x.episodes as EpisodeFigures).rules_list_ms))],
        ['÷ memory.create / .retrieve / .list (p95)', ...withEpisodes.map((x) => { const o = (x.episodes as EpisodeFigures).over_memory_p95; return `${o.record} / ${o.query} / ${o.list}`; })],
        ['typing: main-thread event lag p50/p95 ms, alone → after a record', ...withEpisodes.map((x) => { const ty = (x.episodes as EpisodeFigures).typing; return `${ty.event_lag_alone_ms.p50.toFixed(2)} / ${ty.event_lag_alone_ms.p95.toFixed(2)} → ${ty.event_lag_after_record_ms.p50.toFixed(2)} / ${ty.event_lag_after_record_ms.p95.toFixed(2)}`; })],
        ['chapter save p50/p95 ms, alone → behind a record', ...withEpisodes.map((x) => { const ty = (x.episodes as EpisodeFigures).typing; return `${ty.save_alone_ms.p50.toFixed(2)} / ${ty.save_alone_ms.p95.toFixed(2)} → ${ty.save_after_record_ms.p50.toFixed(2)} / ${ty.save_after_record_ms.p95.toFixed(2)}`; })],
      ])
    : null;
  return [main, '', peers, '', ...(episodes ? [episodes, ''] : []), thr].join('\n');
}

