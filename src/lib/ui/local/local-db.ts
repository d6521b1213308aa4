import Dexie, { type Table } from 'dexie';
import type { Method } from '../../engine/protocol/contract';

/**
 * What must exist before the DB worker and its WASM are up (ARCHITECTURE §3): UI preferences, the model
 * endpoint, editor drafts (saved on every keystroke) and the outbox of writes made while no database was
 * reachable. Lives in IndexedDB on this device only; never exported.
 */
export interface PrefRow {
  key: string;
  value: unknown;
}

export interface DraftRow {
  /** e.g. 'chat:<sessionId>' or 'write:<documentId>' */
  id: string;
  text: string;
  updatedAt: number;
}

export interface OutboxRow {
  /** The write's op id: the engine applies it once, however often the outbox drains. */
  opId: string;
  method: Method;
  input: unknown;
  createdAt: number;
  /** Write order: strictly increasing within this device, even for writes in the same millisecond. */
  seq: number;
  attempts: number;
  lastError?: string;
  /**
   * The engine refused this write for a reason other than "no database" (e.g. its conversation was
   * deleted meanwhile): kept, with the error, until the person retries or discards it (ARCHITECTURE §8:
   * nothing is silently dropped). Drains pass over it.
   */
  refused?: { code: string; message: string; details?: Record<string, unknown>; at: number };
}

export class LocalDb extends Dexie {
  prefs!: Table<PrefRow, string>;
  drafts!: Table<DraftRow, string>;
  outbox!: Table<OutboxRow, string>;

  constructor(name = 'engram-local') {
    super(name);
    this.version(1).stores({ prefs: 'key', drafts: 'id, updatedAt', outbox: 'opId, seq' });
  }
}

let shared: LocalDb | null = null;
export function localDb(): LocalDb {
  shared ??= new LocalDb();
  return shared;
}
