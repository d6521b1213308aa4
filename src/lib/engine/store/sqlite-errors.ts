import { EngineError } from '../../domain/errors';

/**
 * Recognises SQLite failures that a person can act on. Both bindings put SQLite's message (and, for
 * better-sqlite3, a `code` such as SQLITE_FULL) on the error; neither message contains bound values.
 */
export function classifySqliteError(err: unknown): EngineError | null {
  if (!(err instanceof Error)) return null;
  const text = `${(err as { code?: string }).code ?? ''} ${err.message}`;
  if (/SQLITE_FULL|database or disk is full|QuotaExceeded/i.test(text))
    return new EngineError('QUOTA_EXCEEDED', 'The device has no room left for Engram. Free space or export and clean up old data.');
  if (/SQLITE_BUSY|database is locked/i.test(text))
    return new EngineError('DB_UNAVAILABLE', 'The database is busy in another window. Try again in a moment.');
  if (/SQLITE_CORRUPT|malformed|SQLITE_NOTADB|not a database/i.test(text))
    return new EngineError('DB_UNAVAILABLE', 'The database file is damaged. Export what you can and restore a backup.');
  if (/SQLITE_IOERR|disk I\/O error|SQLITE_CANTOPEN/i.test(text))
    return new EngineError('DB_UNAVAILABLE', 'The database could not be read or written. Reload the app to try again.');
  return null;
}

/**
 * A read that failed because the database (or a table of it) cannot be read right now — damaged, an
 * I/O error, locked — not a bug: what the memory sources degrade on (003 记忆系统降级策略).
 */
export function isUnreadable(err: unknown): boolean {
  if (err instanceof EngineError) return err.code === 'DB_UNAVAILABLE';
  return classifySqliteError(err)?.code === 'DB_UNAVAILABLE';
}
