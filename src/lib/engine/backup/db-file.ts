import type { Database } from '@sqlite.org/sqlite-wasm';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { SqlDriver } from '../store/driver';
import { currentVersion, migrate } from '../store/migrate';
import { openImage } from '../store/opfs-read-only';
import { createSqliteWasmDriver } from '../store/sqlite-wasm-driver';
import { dbFileAccess, type DbFileAccess } from './db-file-access';

/**
 * The database file itself, byte for byte.
 *
 * Export reads every page through `sqlite_dbpage` inside one transaction, in ranges, into a Blob: a
 * consistent image without first copying the whole database into the WASM heap.
 *
 * Import never touches the live file until the new one has passed every check:
 *
 *   bytes ─▶ header "SQLite format 3" ─▶ sqlite3_deserialize into a temporary in-memory database
 *         ─▶ PRAGMA integrity_check, foreign_key_check ─▶ schema_version ≤ ours (newer: UNSUPPORTED_VERSION)
 *         ─▶ migrate the copy to our schema ─▶ every table we need exists
 *         ─▶ sqlite3_backup into the live connection (one atomic write; the connection stays open,
 *            prepared statements re-prepare) ─▶ PRAGMA quick_check
 *
 * (This does what the sahpool importDb + reopen would, without closing the database under the other
 * tabs that reach it through this worker.)
 */
export interface DbFileExport {
  file: Blob;
  fileName: string;
  bytes: number;
  schemaVersion: number;
}

export interface DbFileCheck {
  ok: boolean;
  /** SQLite's own messages (they name tables, indexes and row numbers, never content). */
  problems: string[];
  /** The file's schema before migration, and ours. */
  schemaVersion: number;
  currentSchema: number;
  bytes: number;
  counts: { sessions: number; messages: number; memories: number };
}

/** The WASM heap holds the file twice while it is checked; beyond this it would not fit. */
export const MAX_DB_FILE_BYTES = 1024 * 1024 * 1024;
const PAGES_PER_READ = 256;
const MAGIC = 'SQLite format 3\u0000';

/** Every page of the live database, read in ranges inside one transaction (a consistent image). */
function readPages(driver: SqlDriver): { parts: Uint8Array[]; schemaVersion: number } {
  const parts: Uint8Array[] = [];
  let schemaVersion = 0;
  driver.transaction(() => {
    schemaVersion = currentVersion(driver);
    const pages = driver.get<{ n: number }>('SELECT page_count AS n FROM pragma_page_count()')?.n ?? 0;
    for (let first = 1; first <= pages; first += PAGES_PER_READ) {
      const rows = driver.all<{ data: Uint8Array }>("SELECT data FROM sqlite_dbpage('main') WHERE pgno BETWEEN ? AND ? ORDER BY pgno", [
        first,
        first + PAGES_PER_READ - 1,
      ]);
      for (const r of rows) parts.push(r.data);
    }
  });
  return { parts, schemaVersion };
}

export function exportDbFile(env: Pick<EngineEnv, 'driver' | 'clock'>): DbFileExport {
  const { parts, schemaVersion } = readPages(env.driver);
  const file = new Blob(parts as BlobPart[], { type: 'application/vnd.sqlite3' });
  const day = new Date(env.clock.now()).toISOString().slice(0, 10);
  return { file, fileName: `engram-${day}.sqlite3`, bytes: file.size, schemaVersion };
}

function invalid(message: string, details: Record<string, unknown> = {}): EngineError {
  return new EngineError('INVALID_ARGUMENT', `Invalid \`file\`: ${message}. Nothing was changed.`, { fields: ['file'], ...details });
}

async function readBytes(blob: Blob): Promise<Uint8Array> {
  if (blob.size > MAX_DB_FILE_BYTES) throw invalid(`the file is larger than ${MAX_DB_FILE_BYTES / 1024 / 1024} MB`, { bytes: blob.size });
  if (blob.size < 512) throw invalid('this is not an SQLite database');
  const head = new TextDecoder('latin1').decode(await blob.slice(0, 16).arrayBuffer());
  if (head !== MAGIC) throw invalid('this is not an SQLite database');
  return rollbackHeader(new Uint8Array(await blob.arrayBuffer()));
}

/** A WAL-mode image (ours on OPFS, the Node host's) is self-contained once checkpointed: open it in rollback mode. */
function rollbackHeader(bytes: Uint8Array): Uint8Array {
  if (bytes[18] === 2) bytes[18] = 1;
  if (bytes[19] === 2) bytes[19] = 1;
  return bytes;
}

/** The live database as one image, in the JS heap (not the WASM heap the import already fills). */
function liveImage(driver: SqlDriver): Uint8Array {
  const { parts } = readPages(driver);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return rollbackHeader(bytes);
}

export type QuickCheck = (driver: SqlDriver) => string[];

/** SQLite's quick_check: the problems it finds ('ok' alone means none). */
export const quickCheck: QuickCheck = (driver) =>
  driver
    .all<{ quick_check: string }>('PRAGMA quick_check')
    .map((r) => r.quick_check)
    .filter((m) => m !== 'ok');

/** Opens `bytes` as a private in-memory database (freed on close). */
function openCopy(access: DbFileAccess, bytes: Uint8Array): Database {
  try {
    return openImage(access.sqlite3, bytes);
  } catch {
    throw invalid('the database could not be opened');
  }
}

const tablesOf = (driver: SqlDriver) =>
  new Set(driver.all<{ name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'").map((r) => r.name));

function inspect(copy: SqlDriver, live: SqlDriver, access: DbFileAccess, now: () => number): DbFileCheck {
  const currentSchema = currentVersion(live);
  let problems: string[];
  try {
    problems = copy.all<{ integrity_check: string }>('PRAGMA integrity_check').map((r) => r.integrity_check).filter((m) => m !== 'ok');
  } catch {
    // The header said SQLite (checked before the copy was opened): a file the check itself cannot read is damaged.
    throw invalid('the database is damaged beyond reading');
  }
  const fk = copy.all('PRAGMA foreign_key_check').length;
  if (fk > 0) problems.push(`foreign_key_check: ${fk} row(s) refer to rows that do not exist`);
  if (!tablesOf(copy).has('schema_version')) throw invalid('this is not an Engram database (it has no schema_version)');
  const schemaVersion = copy.get<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_version')?.v ?? 0;
  if (schemaVersion > currentSchema)
    throw new EngineError(
      'UNSUPPORTED_VERSION',
      `This database was written by a newer Engram (schema ${schemaVersion}; this app knows ${currentSchema}). Update Engram to import it. Nothing was changed.`,
      { fields: ['file'], schemaVersion, supported: currentSchema },
    );
  if (problems.length === 0) {
    migrate(copy, access.migrations, now);
    const have = tablesOf(copy);
    const missing = [...tablesOf(live)].filter((t) => !have.has(t) && !t.startsWith('sqlite_'));
    if (missing.length) throw invalid(`this is not an Engram database (it lacks ${missing.length} of our tables)`);
  }
  const count = (t: string) => copy.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`)?.n ?? 0;
  const counts = problems.length ? { sessions: 0, messages: 0, memories: 0 } : { sessions: count('sessions'), messages: count('messages'), memories: count('memories') };
  return { ok: problems.length === 0, problems: problems.slice(0, 20), schemaVersion, currentSchema, bytes: 0, counts };
}

/** inspect(), with any SQLite failure on the copy (a damaged page met after the integrity check) a refusal. */
function inspectCopy(copy: SqlDriver, live: SqlDriver, access: DbFileAccess, now: () => number): DbFileCheck {
  try {
    return inspect(copy, live, access, now);
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw invalid('the database is damaged beyond reading');
  }
}

/** Checks a database file without changing anything (the confirmation step). */
export async function checkDbFile(env: Pick<EngineEnv, 'driver' | 'clock'>, blob: Blob): Promise<DbFileCheck> {
  const access = dbFileAccess(env.driver);
  const bytes = await readBytes(blob);
  const copy = createSqliteWasmDriver(openCopy(access, bytes));
  try {
    return { ...inspectCopy(copy, env.driver, access, () => env.clock.now()), bytes: blob.size };
  } finally {
    copy.close();
  }
}

/**
 * Replaces the live database with `blob` once it has passed every check; all or nothing. The copy
 * was checked before the swap; if the live database then fails quick_check anyway (the swap went
 * wrong), the image taken just before the swap goes back in, and the import is refused.
 */
export async function importDbFile(
  env: Pick<EngineEnv, 'driver' | 'clock' | 'log'>,
  blob: Blob,
  opts: { quickCheck?: QuickCheck } = {},
): Promise<DbFileCheck> {
  const check = opts.quickCheck ?? quickCheck;
  const access = dbFileAccess(env.driver);
  const bytes = await readBytes(blob);
  const copyDb = openCopy(access, bytes);
  const copy = createSqliteWasmDriver(copyDb);
  try {
    const result = { ...inspectCopy(copy, env.driver, access, () => env.clock.now()), bytes: blob.size };
    if (!result.ok) throw invalid(`the integrity check found ${result.problems.length} problem(s)`, { problems: result.problems });
    const livePageSize = env.driver.get<{ n: number }>('SELECT page_size AS n FROM pragma_page_size()')?.n ?? 0;
    if (copy.get<{ n: number }>('SELECT page_size AS n FROM pragma_page_size()')?.n !== livePageSize) copy.exec(`PRAGMA page_size = ${livePageSize}; VACUUM`);
    // From here to the end nothing awaits: no other call sees the database between the swap and its check.
    const previous = liveImage(env.driver);
    swapInto(access, copyDb);
    const problems = check(env.driver);
    if (problems.length > 0) {
      const restored = putBack(access, previous, env.driver, check);
      env.log.error('backup.db-import-quick-check', { problems: problems.length, restored });
      throw new EngineError(
        'INTERNAL',
        restored
          ? 'The imported database failed its check once in place, so your previous database was put back. Nothing was changed.'
          : 'The imported database failed its check once in place, and the previous one could not be put back. Export what you can, then import your latest backup.',
        { problems: problems.slice(0, 20), restored },
      );
    }
    env.log.info('backup.db-imported', { bytes: blob.size, from: result.schemaVersion, to: result.currentSchema });
    return result;
  } finally {
    copy.close();
  }
}

/** The image taken before a swap goes back in; true when the database then passes its check. */
function putBack(access: DbFileAccess, image: Uint8Array, live: SqlDriver, check: QuickCheck): boolean {
  let copy: Database | null = null;
  try {
    copy = openCopy(access, image);
    swapInto(access, copy);
    return check(live).length === 0;
  } catch {
    return false;
  } finally {
    copy?.close();
  }
}

/** The backup API copies every page of `copy` into the live database in one write transaction. */
function swapInto(access: DbFileAccess, copy: Database): void {
  const { capi } = access.sqlite3;
  const backup = capi.sqlite3_backup_init(access.db.pointer as number, 'main', copy.pointer as number, 'main');
  if (!backup) throw new EngineError('DB_UNAVAILABLE', 'The database is busy; try the import again in a moment. Nothing was changed.');
  const rc = capi.sqlite3_backup_step(backup, -1);
  capi.sqlite3_backup_finish(backup);
  if (rc !== capi.SQLITE_DONE)
    throw new EngineError('DB_UNAVAILABLE', `The database could not be replaced (SQLite code ${rc}). Nothing was changed.`, { rc });
}
