import type { SqlDriver } from './driver';

/**
 * The tables of the memory system (seed 003 "记忆系统降级策略"): long-term memories and their history,
 * the profile, conversation summaries and the symbol index, episodes, learned rules with their history,
 * conflicts and feedback, the runs' learning rows, the story graph and the vectors. Conversations,
 * documents, runs and settings are not memory: chat and Write need them to work at all.
 */
export const MEMORY_TABLES = [
  'memories',
  'memories_fts',
  'memory_history',
  'user_profile',
  'summaries',
  'summaries_fts',
  'symbol_index',
  'episodes',
  'episodes_fts',
  'semantic_rules',
  'rule_history',
  'rule_conflicts',
  'feedback_events',
  'run_learning',
  'kg_entities',
  'kg_facts',
  'embeddings',
] as const;

export type MemoryFault = 'memory-unreadable' | 'episodes-unreadable';

const TABLES_OF: Record<MemoryFault, readonly string[]> = {
  'memory-unreadable': MEMORY_TABLES,
  // 003 "情景记忆数据库损坏": the episodes alone; the distilled rules stand on their own.
  'episodes-unreadable': ['episodes', 'episodes_fts', 'run_learning'],
};

const touches = (sql: string, tables: readonly string[]): boolean =>
  tables.some((t) => new RegExp(`\\b${t}\\b`, 'i').test(sql));
const isRead = (sql: string): boolean => /^\s*(SELECT|WITH)\b/i.test(sql);

/** The error SQLite gives for a damaged table (a page of its b-tree unreadable). */
export function corruptError(): Error {
  const err = new Error('SQLITE_CORRUPT: database disk image is malformed');
  err.name = 'SQLite3Error';
  return err;
}

/**
 * A driver whose reads of the memory tables fail as a damaged database file's do, while the rest of
 * the file (conversations, documents, runs, settings) still answers. It is how the engine tests and the
 * end-to-end test (a development switch, host/open-engine.ts) put the engine in "nothing of the memory
 * is readable"; `fault` can be changed while it runs (null: healthy).
 */
export function withMemoryFault(inner: SqlDriver, initial: MemoryFault | null): SqlDriver & { fault: MemoryFault | null } {
  const state = { fault: initial };
  const check = (sql: string) => {
    if (state.fault && isRead(sql) && touches(sql, TABLES_OF[state.fault])) throw corruptError();
  };
  return {
    get kind() {
      return inner.kind;
    },
    get fault() {
      return state.fault;
    },
    set fault(f: MemoryFault | null) {
      state.fault = f;
    },
    exec: (sql) => inner.exec(sql),
    run: (sql, params) => {
      check(sql);
      return inner.run(sql, params);
    },
    all: (sql, params) => {
      check(sql);
      return inner.all(sql, params);
    },
    get: (sql, params) => {
      check(sql);
      return inner.get(sql, params);
    },
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
  };
}
