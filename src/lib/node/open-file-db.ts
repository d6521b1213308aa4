/**
 * Node-only (never imported by the app or the workers). Opens the Node host's file database with
 * better-sqlite3 and builds the very engine the DB worker runs on it: same migrations (read from disk:
 * `import.meta.glob` exists only under Vite), same handlers, same contract.
 *
 *   <projectRoot>/.engram/conversation-memory.db      (ARCHITECTURE §10; or --db <path>)
 *   <projectRoot>/.engram/projects/<id>/.engram/…     project setting files (the OPFS layout)
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomId, systemClock, type Clock, type IdGen } from '../domain/clock';
import { silentLogger, type Logger } from '../domain/log';
import { createEngine, type Engine } from '../engine/engine';
import { createBetterSqlite3Driver } from '../engine/store/better-sqlite3-driver';
import type { SqlDriver } from '../engine/store/driver';
import type { Migration } from '../engine/store/migrate';
import { loadMigrationsFromDisk } from '../engine/store/migrations-fs';
import { fsProjectFileStore } from './fs-project-file-store';

export const DB_FOLDER = '.engram';
export const DB_FILE_NAME = 'conversation-memory.db';
/** 002 REQ-LTM-008: a writer waits this long for another process's write lock before giving up. */
export const BUSY_TIMEOUT_MS = 5000;

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

export function openFileEngine(opts: { dbPath: string; clock?: Clock; ids?: IdGen; log?: Logger }): FileEngine {
  const { dbPath } = opts;
  mkdirSync(dirname(dbPath), { recursive: true });
  const created = !existsSync(dbPath);
  const db = new Database(dbPath, { timeout: BUSY_TIMEOUT_MS });
  try {
    const journalMode = tune(db);
    const driver = createBetterSqlite3Driver(db);
    const clock = opts.clock ?? systemClock;
    const env = {
      driver,
      clock,
      ids: opts.ids ?? randomId,
      log: opts.log ?? silentLogger,
      // StorageKind has no 'file' (the app never sees this host); the reason says what it really is.
      storage: { kind: 'memory' as const, reason: 'node-file-database' },
      startedAt: clock.now(),
      files: fsProjectFileStore(dirname(dbPath)),
    };
    diskMigrations ??= loadMigrationsFromDisk();
    const migrations = diskMigrations;
    // One write transaction around start-up (migrations, segmenter check): two processes opening a new
    // file at once run them one after the other instead of both trying to create the same tables.
    const engine = driver.transaction(() => createEngine(env, migrations));
    return { engine, driver, dbPath, created, journalMode, close: () => engine.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}
