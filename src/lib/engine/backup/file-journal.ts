import type { SqlDriver } from '../store/driver';
import type { FilePlan } from './import-files';

/**
 * The files an applied import still owes, recorded in `meta` inside the import's own transaction: the
 * rows and this record commit together or not at all. Until the files are written the record stays, so
 * a failed write is retried and a worker that died in between finishes the job when it starts again.
 *
 *   importApply (one transaction): rows + journal ──▶ importFiles: write files ──▶ journal cleared
 *                                                     (or at the next start)
 */
export interface PendingFiles extends FilePlan {
  token: string;
}

const KEY = 'backup.pending_files';

export function recordPendingFiles(driver: SqlDriver, pending: PendingFiles): void {
  driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [KEY, JSON.stringify(pending)]);
}

export function readPendingFiles(driver: SqlDriver): PendingFiles | null {
  const row = driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [KEY]);
  return row ? (JSON.parse(row.value) as PendingFiles) : null;
}

/** Once every file of the record is written (it is the record of `token` still, not a newer one). */
export function clearPendingFiles(driver: SqlDriver, token: string): void {
  driver.run("DELETE FROM meta WHERE key = ? AND json_extract(value, '$.token') = ?", [KEY, token]);
}
