/** Result shapes of the foundation calls. Feature results live beside their domain code. */
export type StorageKind = 'opfs' | 'memory';

export interface SystemStatus {
  storage: StorageKind;
  /** Why the database is in memory, when it is (e.g. OPFS unavailable in a private window). */
  storageReason: string | null;
  /** The storage was full at start-up: the real database is open read-only and every write answers QUOTA_EXCEEDED. */
  readOnly: boolean;
  schemaVersion: number;
  sqliteVersion: string;
  driver: 'sqlite-wasm' | 'better-sqlite3';
  /** Bytes the database file takes (page_count × page_size). */
  dbBytes: number;
  startedAt: number;
}

export interface MaintenanceReport {
  task: 'optimize' | 'fts-merge';
  ms: number;
  tables: string[];
}

export interface IntegrityReport {
  ok: boolean;
  /** SQLite's own messages (schema-level; no user text). */
  problems: string[];
  ms: number;
}

export interface JobRun {
  id: number;
  job: string;
  trigger: 'idle' | 'periodic' | 'demand' | 'startup';
  status: 'ok' | 'failed';
  startedAt: number;
  finishedAt: number;
  result: Record<string, unknown>;
}

/** Where the database's space goes (issue 13: the storage page's "what uses space"). */
export type StorageArea = 'conversations' | 'memories' | 'writing' | 'app';

export interface StorageUsage {
  /** The database file (page_count × page_size). */
  totalBytes: number;
  /** Pages freed by deletions: new writes reuse them before the file grows. */
  freeBytes: number;
  /** Bytes by area, largest first (free pages not included). */
  areas: { area: StorageArea; bytes: number }[];
}

export interface StorageReclaim {
  /** Frames the write-ahead log held (each written back to the database) before it was emptied. */
  walFrames: number;
  /** Roughly what the log held (frames × page size), now returned to the device. */
  walBytes: number;
  /** False when the log could not be emptied (a reader held it): try again. */
  complete: boolean;
}
