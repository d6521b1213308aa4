/** Test support for the speed report's tests: a size's figures with the values a test cares about. */
import { summarize } from '../lib/stats';
import type { EpisodeFigures, SpeedSize } from './report';

export const lat = (ms: number) => summarize([ms, ms, ms]);

export function speedSize(turns: number, o: { store?: number; recall?: number; symbol?: number; bytes?: number; text?: number } = {}): SpeedSize {
  const recall = lat(o.recall ?? 5);
  const dbBytes = (o.bytes ?? 900) * turns;
  return {
    turns,
    sessions: 1,
    fill: { prefilled_natively: 0, appended_through_ui: turns, ui_wall_ms: 0, prefill_import_ms: null },
    store_turn_ms: lat(o.store ?? 2),
    session_create_ms: lat(1),
    store_memory_ms: lat(3),
    recall_ms: { all: recall, symbol: lat(o.symbol ?? 4), zh: recall, en: recall, mixed: recall },
    memory_retrieve_ms: lat(2),
    memory_list_ms: lat(1),
    summary_10_ms: lat(10),
    summary_roll_ms: { ...lat(4), created: 3 },
    cold_start_ms: { runs: [500], median: 500 },
    storage: { db_bytes: dbBytes, text_bytes: 0, bytes_per_turn: o.bytes ?? 900, text_bytes_per_turn: o.text ?? 200, overhead_bytes_per_turn: (o.bytes ?? 900) - (o.text ?? 200) },
    worker_heap: { js_heap_used: null, js_heap_total: null, wasm_memory: null, sqlite_memory_used: null, sqlite_memory_highwater: null },
    peers: {},
    native: { store_turn_ms: lat(1), recall_ms: lat(1), db_bytes: dbBytes, wasm_over_native: { store_p50: 1, store_p95: 1, recall_p50: 1, recall_p95: 1 } },
  };
}

/** Seed 003's figures at a size: episode.record 4 ms, episode.query 25 ms, rules.list 1 ms (p95s), `over` the stand-in ratios. */
export function episodeFigures(over: EpisodeFigures['over_memory_p95']): EpisodeFigures {
  return {
    count: 10_000,
    rules: 60,
    record_ms: lat(4),
    query_ms: lat(25),
    rules_list_ms: lat(1),
    over_memory_p95: over,
    typing: { event_lag_alone_ms: lat(0.1), event_lag_after_record_ms: lat(0.3), save_alone_ms: lat(2), save_after_record_ms: lat(5) },
    wall_ms: 1,
  };
}
