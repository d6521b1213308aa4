import { EngineError } from '../../domain/errors';
import type { SqlDriver } from './driver';
import { classifySqliteError } from './sqlite-errors';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

const FILE_NAME = /(?:^|\/)(\d{4})-([a-z0-9-]+)\.sql$/;

/** Turns `{ './0001-foundation.sql': sql }` into ordered migrations; a gap or a duplicate is a bug. */
export function parseMigrationFiles(files: Record<string, string>): Migration[] {
  const list = Object.entries(files).map(([path, sql]) => {
    const match = FILE_NAME.exec(path);
    if (!match) throw new Error(`migration file name must look like NNNN-name.sql: ${path}`);
    return { version: Number(match[1]), name: `${match[1]}-${match[2]}`, sql };
  });
  list.sort((a, b) => a.version - b.version);
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 0001, 0002, … without gaps (at ${m.name})`);
  });
  return list;
}

export function currentVersion(driver: SqlDriver): number {
  // Only a database without the table is written to: reading the version must work on a read-only one.
  if (!driver.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'"))
    driver.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  return driver.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version')?.v ?? 0;
}

/**
 * Applies each pending migration in its own transaction. A failing migration is rolled back whole,
 * so the database stays at the last good version, and MIGRATION_FAILED names the file.
 */
export function migrate(driver: SqlDriver, migrations: readonly Migration[], now: () => number): MigrationReport {
  // A brand-new database gives freed pages back in bounded steps (lifecycle/vacuum.ts): SQLite takes this only
  // before the first table exists. An older database switches at its next full VACUUM ("clean now").
  if (!driver.get('SELECT 1 FROM sqlite_schema LIMIT 1')) driver.exec('PRAGMA auto_vacuum = INCREMENTAL');
  const from = currentVersion(driver);
  const latest = migrations.at(-1)?.version ?? 0;
  if (from > latest) {
    throw new EngineError(
      'UNSUPPORTED_VERSION',
      `The database was written by a newer version of Engram (schema ${from}, this app knows ${latest}). Update the app to open it.`,
      { schemaVersion: from, supported: latest },
    );
  }
  const applied: string[] = [];
  for (const m of migrations) {
    if (m.version <= from) continue;
    try {
      driver.transaction(() => {
        driver.exec(m.sql);
        driver.run('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)', [m.version, m.name, now()]);
      });
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      // A full disk is not a broken upgrade: say so, so the caller can open read-only and try again later.
      const full = classifySqliteError(cause)?.code === 'QUOTA_EXCEEDED';
      throw new EngineError('MIGRATION_FAILED', `Database upgrade ${m.name} failed and was rolled back: ${reason}`, {
        migration: m.name,
        version: m.version,
        keptVersion: currentVersion(driver),
        ...(full ? { cause: 'QUOTA_EXCEEDED' } : {}),
      });
    }
    applied.push(m.name);
  }
  return { from, to: Math.max(from, latest), applied };
}
