import type { Sqlite3Static, SAHPoolUtil, Database } from '@sqlite.org/sqlite-wasm';
import { loadSqlite3 } from './sqlite3-loader';
import type { Logger } from '../../domain/log';
import type { StorageKind } from '../protocol/types';
import type { SqlDriver } from './driver';
import { EngineError } from '../../domain/errors';
import { BUSY_OPEN, openWhileBusy } from './open-retry';
import { installOpfsFaultProbe, translateStorageFault } from './opfs-faults';
import { installIoCounters, ioSnapshot, walFramesNow } from './io-counters';
import { keepWalSmall } from './wal-keeper';
import { openImage, readDatabaseImage, refuseWrites, translateReadOnly } from './opfs-read-only';
import { classifySqliteError } from './sqlite-errors';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';
import { markStartup } from '../host/startup-marks';

export const DB_FILE = '/engram.sqlite3';
const POOL_NAME = 'engram-sahpool';

export { loadSqlite3, sqlite3IfLoaded } from './sqlite3-loader';

export interface OpenedDatabase {
  driver: SqlDriver;
  storage: { kind: StorageKind; reason: string | null; readOnly?: boolean };
  /** The sahpool utility (export/import of the file); null in memory. */
  pool: SAHPoolUtil | null;
  db: Database;
  /** Storage was full at start-up: this is a read-only copy of the real database (opfs-read-only.ts). */
  readOnly?: ReadOnlyStart;
}

export interface ReadOnlyStart {
  /** Once the engine is built on the copy (its migrations ran in memory): from then on writes are refused. */
  lockWrites(): void;
  /** The real database, read-write, once there is room again; null while storage is still full. */
  reopen(): Promise<OpenedDatabase | null>;
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
 * WAL frames after which a COMMIT checkpoints (SQLite's default: 1,000). The checkpoint runs inside whichever
 * COMMIT crosses the mark — a clean-up slice's or a foreground episode.record's — and copies every page the WAL
 * holds into the database file, then flushes both. Issue 19, measured in the lifecycle benchmark with the I/O
 * counters (io-counters.ts): at 1,000 frames such a COMMIT wrote ~280 pages (2.1 MB) and flushed 3 times,
 * 38–92 ms — the longest waits of the run. A smaller WAL keeps each checkpoint's copy small; how often SQLite
 * checkpoints changes nothing about what a COMMIT guarantees (atomic and durable at synchronous=FULL either way).
 */
export const WAL_AUTOCHECKPOINT_FRAMES = 200;

/**
 * The benchmark harness only (bench/speed/wal-ab.ts builds it twice, with VITE_BENCH_WAL_FRAMES=200 and =1000, to
 * compare the mark side by side, issue 16): another mark, fixed at build time. Unset (the app): the mark above.
 */
const benchFrames = Number((import.meta.env as Record<string, string | undefined> | undefined)?.VITE_BENCH_WAL_FRAMES ?? '');
const walFrames = Number.isInteger(benchFrames) && benchFrames > 0 ? benchFrames : WAL_AUTOCHECKPOINT_FRAMES;

/**
 * The journal of the OPFS database: WAL (exclusive locking: the sahpool VFS has no shared memory), checkpointed by
 * SQLite every WAL_AUTOCHECKPOINT_FRAMES frames — unless the WAL keeper runs, which applies WAL_KEEPER_PRAGMAS after
 * these and checkpoints between calls itself.
 */
export const PERSISTENT_JOURNAL_PRAGMAS = `PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = ${walFrames};`;

/**
 * With the WAL keeper on (store/wal-keeper.ts: a checkpoint in a task of its own once the WAL holds WAL_SOON_FRAMES,
 * at once past WAL_MUST_FRAMES), SQLite's own mark moves far out of its way, so no COMMIT runs one (issue 19). Not
 * off (0): one lifecycle benchmark run read 1,860 frames at most in the browser where the keeper's bound and the
 * largest transaction (≤ 338 pages) say ≤ ~500, unexplained yet — SQLite's mark stays the backstop until it is.
 */
export const WAL_KEEPER_BACKSTOP_FRAMES = 1000;
export const WAL_KEEPER_PRAGMAS = `PRAGMA wal_autocheckpoint = ${WAL_KEEPER_BACKSTOP_FRAMES};`;

/**
 * Pragmas for the one connection of the browser. WAL (which the sahpool VFS allows only with exclusive
 * locking — fine, this worker is the database's only user) with synchronous=FULL: every commit is
 * durable, at ~2.5× the speed of the rollback journal on OPFS (measured: p50 10.6 vs 29 ms per commit
 * on this machine's Chromium). A generous page cache keeps recall off the disk.
 */
function tune(db: Database, persistent: boolean): void {
  // Exclusive locking must come before anything touches the file: a database whose header says WAL,
  // opened in normal locking mode, wants shared memory the sahpool VFS does not have, and fails.
  if (persistent) db.exec(PERSISTENT_JOURNAL_PRAGMAS);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY; PRAGMA synchronous = FULL;');
}

/** A failure that means "the origin's storage is full" (before or after SQLite saw it). */
export function isStorageFull(err: unknown): boolean {
  if ((err as { name?: string } | null)?.name === 'QuotaExceededError') return true;
  const message = err instanceof Error ? err.message : String(err);
  if (/exceed its storage quota|QuotaExceeded/i.test(message)) return true;
  if (err instanceof EngineError) return err.code === 'QUOTA_EXCEEDED' || err.details?.cause === 'QUOTA_EXCEEDED';
  return classifySqliteError(translateStorageFault(err))?.code === 'QUOTA_EXCEEDED';
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
  if (pool.isPaused()) await pool.unpauseVfs();
  markStartup('pool');
  const db = new pool.OpfsSAHPoolDb(DB_FILE);
  try {
    tune(db, true);
  } catch (err) {
    db.close();
    throw err;
  }
  markStartup('open');
  const keeper = keepWalSmall(createSqliteWasmDriver(db, { capi: sqlite3.capi, wasm: sqlite3.wasm, translateError: translateStorageFault }), {
    framesNow: walFramesNow,
    pagesWritten: () => ioSnapshot()?.walPageWrites ?? null,
  });
  // The keeper checkpoints between calls (store/wal-keeper.ts): no person's COMMIT pays for one. Where it cannot
  // count the WAL's frames (no I/O counters), SQLite's autocheckpoint stays on.
  if (keeper.active) db.exec(WAL_KEEPER_PRAGMAS);
  return { driver: keeper.driver, storage: { kind: 'opfs', reason: null }, pool, db };
}

/**
 * Opens the database on OPFS (sahpool VFS). While another context still holds the file it keeps trying
 * (open-retry.ts) — an empty in-memory database in its place would lose everything the user then
 * writes. When the origin's storage is full, the real database opens read-only from a copy of its files
 * (`readOnly`; writes answer QUOTA_EXCEEDED until there is room). Only when OPFS cannot be used at all
 * (a private window, no storage access) does it open in memory, and says why: the UI then shows a
 * permanent "nothing is saved" banner.
 */
export async function openWasmDatabase(opts: OpenOptions): Promise<OpenedDatabase> {
  const sqlite3 = await loadSqlite3();
  if (!opts.persistent) return inMemory(sqlite3, 'guest');
  // Before any handle is made: an OPFS write that fails for want of quota is then told apart from an I/O error.
  installOpfsFaultProbe();
  // Counts (never contents) of the handle's writes and flushes: what a slow COMMIT was made of (lifecycle reports).
  installIoCounters();
  const outcome = await openWhileBusy({
    attempt: () => openOpfs(sqlite3),
    isBusy: (message) => BUSY_OPEN.test(message),
    isFatal: isStorageFull,
    waitingAfterMs: opts.waitingAfterMs ?? 8000,
    onWaiting: () => {
      opts.log.warn('db.open-waiting');
      opts.onWaiting?.();
    },
  });
  if (outcome.kind === 'opened') return outcome.value;
  if (isStorageFull(outcome.error)) {
    opts.log.warn('db.storage-full-at-start');
    return openReadOnlyCopy(sqlite3, opts.log, null);
  }
  opts.log.warn('db.opfs-unavailable', { reason: outcome.reason.slice(0, 200) });
  return inMemory(sqlite3, 'opfs-unavailable');
}

/**
 * The database opened but could not be brought up to date (a migration or re-index needs room the
 * disk does not have): close it, let go of the files, and open the read-only copy instead.
 */
export async function fallBackToReadOnly(opened: OpenedDatabase, log: Logger): Promise<OpenedDatabase> {
  opened.driver.close();
  opened.pool?.pauseVfs();
  log.warn('db.storage-full-at-start', { stage: 'upgrade' });
  return openReadOnlyCopy(await loadSqlite3(), log, opened.pool);
}

async function openReadOnlyCopy(sqlite3: Sqlite3Static, log: Logger, pausedPool: SAHPoolUtil | null): Promise<OpenedDatabase> {
  const { image, frames } = await readDatabaseImage(`.${POOL_NAME}`, DB_FILE);
  log.info('db.read-only-copy', { bytes: image.byteLength, walFrames: frames });
  const db = openImage(sqlite3, image);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;');
  const driver = createSqliteWasmDriver(db, { capi: sqlite3.capi, wasm: sqlite3.wasm, translateError: translateReadOnly });
  return {
    driver,
    storage: { kind: 'opfs', reason: 'storage-full', readOnly: true },
    pool: null,
    db,
    readOnly: {
      lockWrites: () => refuseWrites(sqlite3, db),
      async reopen() {
        try {
          if (pausedPool?.isPaused()) await pausedPool.unpauseVfs();
          return await openOpfs(sqlite3);
        } catch (err) {
          if (isStorageFull(err)) return null;
          throw err;
        }
      },
    },
  };
}

function inMemory(sqlite3: Sqlite3Static, why: 'guest' | 'opfs-unavailable'): OpenedDatabase {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  tune(db, false);
  return { driver: createSqliteWasmDriver(db, { capi: sqlite3.capi, wasm: sqlite3.wasm }), storage: { kind: 'memory', reason: why }, pool: null, db };
}
