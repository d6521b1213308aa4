import type { StorageArea, StorageReclaim, StorageUsage } from '../protocol/types';
import type { SqlDriver } from './driver';

/**
 * What uses the database's space (dbstat: every b-tree's pages), grouped into the areas a person knows
 * — an index and a full-text index's shadow tables count with the table they serve. Read on demand
 * (the storage page asks), since dbstat walks every page.
 */
const AREA_OF: Record<string, StorageArea> = {
  sessions: 'conversations',
  messages: 'conversations',
  messages_fts: 'conversations',
  summaries: 'conversations',
  summaries_fts: 'conversations',
  symbol_index: 'conversations',
  symbol_index_by_turn: 'conversations',
  symbol_index_lean: 'conversations',
  memories: 'memories',
  memories_fts: 'memories',
  memory_history: 'memories',
  user_profile: 'memories',
  semantic_rules: 'memories',
  projects: 'writing',
  documents: 'writing',
  kg_entities: 'writing',
  kg_facts: 'writing',
  context_runs: 'writing',
  generation_traces: 'writing',
  feedback_events: 'writing',
};

const FTS_SHADOW = /_(data|idx|content|docsize|config)$/;

export function storageUsage(driver: SqlDriver): StorageUsage {
  const pageSize = driver.get<{ n: number }>('SELECT page_size AS n FROM pragma_page_size()')?.n ?? 0;
  const pages = driver.get<{ n: number }>('SELECT page_count AS n FROM pragma_page_count()')?.n ?? 0;
  const free = driver.get<{ n: number }>('SELECT freelist_count AS n FROM pragma_freelist_count()')?.n ?? 0;
  const owner = new Map(driver.all<{ name: string; tbl: string }>('SELECT name, tbl_name AS tbl FROM sqlite_schema').map((r) => [r.name, r.tbl]));
  const sums = new Map<StorageArea, number>();
  for (const { name, bytes } of driver.all<{ name: string; bytes: number }>("SELECT name, SUM(pgsize) AS bytes FROM dbstat('main') GROUP BY name")) {
    const table = owner.get(name) ?? name;
    const base = AREA_OF[table] ? table : table.replace(FTS_SHADOW, '');
    const area = AREA_OF[base] ?? 'app';
    sums.set(area, (sums.get(area) ?? 0) + Number(bytes));
  }
  // Incremental auto-vacuum's pointer-map pages (lifecycle/vacuum.ts) belong to no b-tree: SQLite's own bookkeeping.
  const bookkeeping = (pages - free) * pageSize - [...sums.values()].reduce((n, b) => n + b, 0);
  if (bookkeeping > 0) sums.set('app', (sums.get('app') ?? 0) + bookkeeping);
  const areas = [...sums].map(([area, bytes]) => ({ area, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { totalBytes: pages * pageSize, freeBytes: free * pageSize, areas };
}

/**
 * Empties the write-ahead log into the database and truncates it: on a full disk this is room the
 * next writes can use at once. Must run outside a transaction (a checkpoint inside one does nothing).
 */
export function reclaimLog(driver: SqlDriver): StorageReclaim {
  const pageSize = driver.get<{ n: number }>('SELECT page_size AS n FROM pragma_page_size()')?.n ?? 0;
  type Checkpoint = { busy: number; log: number; checkpointed: number };
  // PASSIVE first says what the log holds (TRUNCATE reports the emptied log: zeros).
  const held = driver.get<Checkpoint>('PRAGMA wal_checkpoint(PASSIVE)');
  const done = driver.get<Checkpoint>('PRAGMA wal_checkpoint(TRUNCATE)');
  const frames = Math.max(0, Number(held?.log ?? 0));
  return { walFrames: frames, walBytes: frames * (pageSize + 24), complete: Number(done?.busy ?? 0) === 0 };
}
