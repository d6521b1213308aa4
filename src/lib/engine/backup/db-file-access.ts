import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { EngineError } from '../../domain/errors';
import type { SqlDriver } from '../store/driver';
import type { Migration } from '../store/migrate';

/**
 * What importing a database file needs beyond the SqlDriver port: the sqlite-wasm module and the live
 * connection (for sqlite3_deserialize and the backup API), and the migrations (to bring an older file
 * up to date before it replaces the live one). Whoever opens the database provides it — the DB worker
 * (host/worker-api.ts) and the tests; a driver without it (the Node host's better-sqlite3) answers
 * DB_UNAVAILABLE for database-file imports. Exports need none of this (they read sqlite_dbpage).
 */
export interface DbFileAccess {
  sqlite3: Sqlite3Static;
  db: Database;
  migrations: readonly Migration[];
}

const provided = new WeakMap<SqlDriver, DbFileAccess>();

export function provideDbFileAccess(driver: SqlDriver, access: DbFileAccess): void {
  provided.set(driver, access);
}

export function dbFileAccess(driver: SqlDriver): DbFileAccess {
  const access = provided.get(driver);
  if (!access)
    throw new EngineError('DB_UNAVAILABLE', 'Importing a database file is not available here; import a JSON export instead.', {
      field: 'file',
    });
  return access;
}
