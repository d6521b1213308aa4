/**
 * Node-only (never imported by the app or the workers). Opens the Node host's file database with
 * better-sqlite3 and builds the very engine the DB worker runs on it: same migrations (read from disk:
 * `import.meta.glob` exists only under Vite), same handlers, same contract.
 *
 *   <projectRoot>/.engram/conversation-memory.db                         (ARCHITECTURE §10; or --db <path>)
 *   <projectRoot>/.engram/conversation-memory.db-engram/projects/<id>/…  its project setting files (the OPFS layout)
 *   <projectRoot>/.engram/conversation-memory.db-engram/processes/<pid>  who has it open (db-presence.ts)
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomId, systemClock, type Clock, type IdGen } from '../domain/clock';
import { EngineError } from '../domain/errors';
import { silentLogger, type Logger } from '../domain/log';
import { createEngine, type Engine } from '../engine/engine';
import { createBetterSqlite3Driver } from '../engine/store/better-sqlite3-driver';
import type { SqlDriver } from '../engine/store/driver';
import { segmenterVersion } from '../domain/text';
import { storedSegmenterVersion } from '../engine/store/fts-reindex';
import { currentVersion, type Migration } from '../engine/store/migrate';
import { loadMigrationsFromDisk } from '../engine/store/migrations-fs';
import { describeHolders, joinPresence, type Presence } from './db-presence';
import { fsProjectFileStore } from './fs-project-file-store';
import { sidecarDir } from './sidecar';

export const DB_FOLDER = '.engram';
export const DB_FILE_NAME = 'conversation-memory.db';
/** 002 REQ-LTM-008: a writer waits this long for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 5000;
/**
 * While waiting for the write lock: how soon the wait is noted for the holder (the note an import reads between
 * its steps to step aside) — at once, since a stepping import never lets a silent waiter in — and how long each
 * later slice of the wait is. The person is told who holds the database only once a later slice waited too
 * (~1 s): two writers brushing past each other for 50 ms is no news (it printed a notice on every such wait).
 */
const LOCK_FIRST_SLICE_MS = 50;
const LOCK_SLICE_MS = 1000;

/** `--db` wins; otherwise `<projectRoot>/.engram/conversation-memory.db` (projectRoot defaults to the working directory). */
export function resolveDbPath(opts: { db?: string; projectRoot?: string; cwd?: string }): string {
  const cwd = opts.cwd ?? process.cwd();
  if (opts.db) return resolve(cwd, opts.db);
  return join(resolve(cwd, opts.projectRoot ?? '.'), DB_FOLDER, DB_FILE_NAME);
}

export interface FileEngine {
  engine: Engine;
  driver: SqlDriver;
  dbPath: string;
  /** True when this call created the database file. */
  created: boolean;
  journalMode: string;
  /** The other Engram processes on this database, and this one's notes (db-presence.ts). */
  presence: Presence;
  close(): void;
}

let diskMigrations: Migration[] | null = null;

/**
 * 002 REQ-LTM-008 / SC-LTM-005: WAL (readers never block the writer), busy_timeout=5000 (a writer's
 * BEGIN IMMEDIATE waits for another process's instead of failing), synchronous=NORMAL (durable at
 * each checkpoint; WAL keeps the file consistent on a crash).
 */
function tune(db: Database.Database): string {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const mode = String(db.pragma('journal_mode = WAL', { simple: true }));
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -16000');
  db.pragma('temp_store = MEMORY');
  return mode;
}

/**
 * Project setting files used to live in `<folder>/projects`, shared by every database in the folder.
 * The default database takes them over (it is the one they were written for unless `--db` was used).
 */
function adoptLegacyProjectFiles(dbPath: string): void {
  const legacy = join(dirname(dbPath), 'projects');
  const target = join(sidecarDir(dbPath), 'projects');
  if (basename(dbPath) !== DB_FILE_NAME || !existsSync(legacy) || existsSync(target)) return;
  mkdirSync(sidecarDir(dbPath), { recursive: true });
  renameSync(legacy, target);
}

export interface OpenFileOptions {
  dbPath: string;
  clock?: Clock;
  ids?: IdGen;
  log?: Logger;
  /** The CLI command that opens it (`store`, `import` …), for the notes other processes read. */
  command?: string;
  /** This process has waited ~1 s (two slices) for another's write lock: `holders` says whose ("process 4242 (`import` …)"). */
  onLockWait?: (holders: string) => void;
}

/**
 * Readers never wait for writers (issue 13 defect 3): start-up takes the write lock only when there is
 * something to set up (a new file, a migration, a re-index); a database that is up to date is opened
 * with reads alone, so `recall` runs while another process imports. A write that finds the lock taken
 * says who holds it, and fails after BUSY_TIMEOUT_MS naming them.
 */
export function openFileEngine(opts: OpenFileOptions): FileEngine {
  const { dbPath } = opts;
  mkdirSync(dirname(dbPath), { recursive: true });
  const created = !existsSync(dbPath);
  const db = new Database(dbPath, { timeout: BUSY_TIMEOUT_MS });
  const presence = joinPresence(dbPath, opts.command ?? 'open');
  try {
    const journalMode = tune(db);
    const busy = () =>
      new EngineError('DB_UNAVAILABLE', `The database is busy: ${describeHolders(presence.others())} is writing to it. Try again when it has finished.`, {
        reason: 'busy',
      });
    const driver = createBetterSqlite3Driver(db, {
      lockWait: {
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        sliceMs: LOCK_SLICE_MS,
        firstSliceMs: LOCK_FIRST_SLICE_MS,
        onLockWait: () => presence.waiting(true),
        onStillWaiting: () => opts.onLockWait?.(describeHolders(presence.others())),
        onLockWaitOver: () => presence.waiting(false),
      },
      translateError: (err) => (/^SQLITE_BUSY/.test((err as { code?: string }).code ?? '') ? busy() : err),
    });
    const clock = opts.clock ?? systemClock;
    adoptLegacyProjectFiles(dbPath);
    const env = {
      driver,
      clock,
      ids: opts.ids ?? randomId,
      log: opts.log ?? silentLogger,
      // StorageKind has no 'file' (the app never sees this host); the reason says what it really is.
      storage: { kind: 'memory' as const, reason: 'node-file-database' },
      startedAt: clock.now(),
      files: fsProjectFileStore(sidecarDir(dbPath)),
      // FTS5's own merging at COMMITs: a command answers and exits, with no calls to merge between, and a merge task
      // would take the write lock other processes wait on (store/fts-merge.ts FtsMerging).
      ftsMerging: 'automerge' as const,
    };
    diskMigrations ??= loadMigrationsFromDisk();
    const migrations = diskMigrations;
    const upToDate = () =>
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'").get() !== undefined &&
      currentVersion(driver) === (migrations.at(-1)?.version ?? 0) &&
      storedSegmenterVersion(driver) === segmenterVersion();
    // Something to set up: one write transaction around it, so two processes opening a new file at once
    // run the migrations one after the other instead of both creating the same tables.
    const engine = upToDate() ? createEngine(env, migrations) : driver.transaction(() => createEngine(env, migrations));
    return {
      engine,
      driver,
      dbPath,
      created,
      journalMode,
      presence,
      close: () => {
        engine.close();
        presence.leave();
      },
    };
  } catch (err) {
    db.close();
    presence.leave();
    throw err;
  }
}
