import sqlite3InitModule, { type Sqlite3Static, type SAHPoolUtil, type Database } from '@sqlite.org/sqlite-wasm';
import type { Logger } from '../../domain/log';
import type { StorageKind } from '../protocol/types';
import type { SqlDriver } from './driver';
import { BUSY_OPEN, openWhileBusy } from './open-retry';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';
import { markStartup } from '../host/startup-marks';

export const DB_FILE = '/engram.sqlite3';
const POOL_NAME = 'engram-sahpool';

let sqlite3Promise: Promise<Sqlite3Static> | null = null;

/** One sqlite3 module per JS context. */
export function loadSqlite3(): Promise<Sqlite3Static> {
  sqlite3Promise ??= sqlite3InitModule().then((sqlite3) => (markStartup('wasm'), sqlite3));
  return sqlite3Promise;
}

export interface OpenedDatabase {
  driver: SqlDriver;
  storage: { kind: StorageKind; reason: string | null };
  /** The sahpool utility (export/import of the file); null in memory. */
  pool: SAHPoolUtil | null;
  db: Database;
}

export interface OpenOptions {
  /** false: a deliberate in-memory session (guest mode, tests). */
  persistent: boolean;
  log: Logger;
  /** How long the file may stay busy (a closing tab still holds it) before `onWaiting` is told. */
  waitingAfterMs?: number;
  /** The file is still busy after `waitingAfterMs`: opening goes on, and the user should hear why. */
  onWaiting?: () => void;
}

/**
 * Pragmas for the one connection of the browser. WAL (which the sahpool VFS allows only with exclusive
 * locking — fine, this worker is the database's only user) with synchronous=FULL: every commit is
 * durable, at ~2.5× the speed of the rollback journal on OPFS (measured: p50 10.6 vs 29 ms per commit
 * on this machine's Chromium). A generous page cache keeps recall off the disk.
 */
function tune(db: Database, persistent: boolean): void {
  // Exclusive locking must come before anything touches the file: a database whose header says WAL,
  // opened in normal locking mode, wants shared memory the sahpool VFS does not have, and fails.
  if (persistent) db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;');
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = FULL;');
}

async function openOpfs(sqlite3: Sqlite3Static): Promise<OpenedDatabase> {
  const options = {
    name: POOL_NAME,
    preserveOnInitFailure: true,
    // A failed init is cached; the previous holder (a closing tab) may have let go by now.
    // (Supported at run time since 3.54 but missing from the bundled typings.)
    forceReinitIfPreviouslyFailed: true,
    initialCapacity: 6,
  };
  const pool = await sqlite3.installOpfsSAHPoolVfs(options as Parameters<Sqlite3Static['installOpfsSAHPoolVfs']>[0]);
  markStartup('pool');
  const db = new pool.OpfsSAHPoolDb(DB_FILE);
  tune(db, true);
  markStartup('open');
  return { driver: createSqliteWasmDriver(db), storage: { kind: 'opfs', reason: null }, pool, db };
}

/**
 * Opens the database on OPFS (sahpool VFS). While another context still holds the file it keeps trying
 * (open-retry.ts) — an empty in-memory database in its place would lose everything the user then
 * writes. Only when OPFS cannot be used at all (a private window, no storage access) does it open in
 * memory, and says why: the UI then shows a permanent "nothing is saved" banner.
 */
export async function openWasmDatabase(opts: OpenOptions): Promise<OpenedDatabase> {
  const sqlite3 = await loadSqlite3();
  if (!opts.persistent) return inMemory(sqlite3, 'guest');
  const outcome = await openWhileBusy({
    attempt: () => openOpfs(sqlite3),
    isBusy: (message) => BUSY_OPEN.test(message),
    waitingAfterMs: opts.waitingAfterMs ?? 8000,
    onWaiting: () => {
      opts.log.warn('db.open-waiting');
      opts.onWaiting?.();
    },
  });
  if (outcome.kind === 'opened') return outcome.value;
  opts.log.warn('db.opfs-unavailable', { reason: outcome.reason.slice(0, 200) });
  return inMemory(sqlite3, 'opfs-unavailable');
}

function inMemory(sqlite3: Sqlite3Static, why: 'guest' | 'opfs-unavailable'): OpenedDatabase {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  tune(db, false);
  return { driver: createSqliteWasmDriver(db), storage: { kind: 'memory', reason: why }, pool: null, db };
}
