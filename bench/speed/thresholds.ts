/**
 * The targets printed beside the measured values. Seed 002 "性能基准" / "存储效率" (per turn, per 10-turn summary,
 * per 1,000 turns), seed 003 "模块级可验收标准" on the real calls (episode.record, episode.query, rules.list at
 * 10,000 episodes — issue 17), and the issues' goals for the DB worker on OPFS. A ratio (unit ×) compares two
 * calls of the same run: absolute times move 2–3× between our machines, ratios much less.
 */
export interface Threshold {
  id: string;
  source: string;
  what: string;
  /** The measured figure it applies to (a key of the speed report's `checks`). */
  metric: string;
  limit: number;
  unit: 'ms' | 'B' | 'x';
}

export const THRESHOLDS: readonly Threshold[] = [
  { id: '002-store', source: '002 性能基准', what: '单轮存储 latency', metric: 'store_turn_p95_ms', limit: 20, unit: 'ms' },
  { id: 'goal-store', source: 'issue goal', what: 'store a turn, p95', metric: 'store_turn_p95_ms', limit: 3, unit: 'ms' },
  { id: '002-symbol-100', source: '002 性能基准', what: '符号召回（100轮历史）', metric: 'recall_symbol_p95_ms@100', limit: 100, unit: 'ms' },
  { id: '002-symbol-1000', source: '002 性能基准', what: '符号召回（1000轮历史）', metric: 'recall_symbol_p95_ms@1000', limit: 200, unit: 'ms' },
  { id: 'goal-recall', source: 'issue goal', what: 'recall p95 at 100,000 turns', metric: 'recall_p95_ms@100000', limit: 15, unit: 'ms' },
  { id: '002-summary', source: '002 性能基准', what: '摘要生成（10轮）', metric: 'summary_10_p95_ms', limit: 500, unit: 'ms' },
  { id: '002-turn-bytes', source: '002 存储效率', what: '单轮对话 < 1KB (whole DB ÷ turns)', metric: 'bytes_per_turn', limit: 1024, unit: 'B' },
  { id: 'goal-overhead', source: 'issue goal', what: '≤ 1 KB per turn beyond its text', metric: 'overhead_bytes_per_turn', limit: 1024, unit: 'B' },
  { id: '002-1000-turns', source: '002 存储效率', what: '1000 轮历史 < 2MB', metric: 'db_bytes@1000', limit: 2 * 1024 * 1024, unit: 'B' },
  { id: '003-record', source: '003 验收', what: 'memory:episode:record p95 (episode.record, 10,000 episodes)', metric: 'episode_record_p95_ms', limit: 150, unit: 'ms' },
  { id: '003-query', source: '003 验收', what: 'memory:episode:query p95 (episode.query, 10,000 episodes)', metric: 'episode_query_p95_ms', limit: 220, unit: 'ms' },
  { id: '003-list', source: '003 验收', what: 'memory:semantic:list p95 (rules.list)', metric: 'rules_list_p95_ms', limit: 180, unit: 'ms' },
  { id: 'goal-episode-record', source: 'issue 17 goal', what: 'episode.record p95', metric: 'episode_record_p95_ms', limit: 5, unit: 'ms' },
  { id: 'goal-episode-query', source: 'issue 17 goal', what: 'episode.query p95', metric: 'episode_query_p95_ms', limit: 20, unit: 'ms' },
  { id: 'goal-rules-list', source: 'issue 17 goal', what: 'rules.list p95', metric: 'rules_list_p95_ms', limit: 5, unit: 'ms' },
  { id: 'goal-record-ratio', source: 'issue 17 goal', what: 'episode.record ÷ memory.create (p95, same run)', metric: 'episode_record_over_memory_create', limit: 2, unit: 'x' },
  { id: 'goal-query-ratio', source: 'issue 17 goal', what: 'episode.query ÷ memory.retrieve (p95, same run)', metric: 'episode_query_over_memory_retrieve', limit: 2, unit: 'x' },
  { id: 'goal-typing', source: 'issue 17 goal', what: 'typing: main-thread event lag p95 after sending a record − without (ms)', metric: 'episode_typing_lag_p95_delta_ms', limit: 1, unit: 'ms' },
  { id: 'goal-list-ratio', source: 'issue 17 goal', what: 'rules.list ÷ memory.list (p95, same run)', metric: 'rules_list_over_memory_list', limit: 2, unit: 'x' },
];
