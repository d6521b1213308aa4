/**
 * The targets printed beside the measured values. Seed 002 "性能基准" / "存储效率" (per turn, per 10-turn summary,
 * per 1,000 turns), seed 003 "模块级可验收标准" and "Non-Functional Requirements" (memory record ≈ memory.create,
 * memory query ≈ memory.retrieve, semantic list ≈ memory.list), and the conversation issue's goals for the DB
 * worker on OPFS.
 */
export interface Threshold {
  id: string;
  source: string;
  what: string;
  /** The measured figure it applies to (a key of the speed report's `checks`). */
  metric: string;
  limit: number;
  unit: 'ms' | 'B';
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
  { id: '003-record', source: '003 验收', what: 'memory:episode:record p95 (≈ memory.create)', metric: 'memory_create_p95_ms', limit: 150, unit: 'ms' },
  { id: '003-query', source: '003 验收', what: 'memory:episode:query p95 (≈ memory.retrieve)', metric: 'memory_retrieve_p95_ms', limit: 220, unit: 'ms' },
  { id: '003-list', source: '003 验收', what: 'memory:semantic:list p95 (≈ memory.list)', metric: 'memory_list_p95_ms', limit: 180, unit: 'ms' },
];
