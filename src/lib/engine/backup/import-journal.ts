import type { EngramExport, ImportMode } from '../../domain/backup';
import type { SqlDriver } from '../store/driver';

/**
 * Where an import apply stands, in `meta`, written in the transactions of the apply itself (issue 16): an apply
 * cut short (a closed window, a crashed worker) leaves this record, and applying the same file again resumes it —
 * a replace whose removal committed does not remove its scope a second time (it would take the rows it already
 * wrote); the rest of the file is written as usual (a merge skips what is there).
 */
export interface ImportJournal {
  /** Which file: its export time, scope and row counts. */
  key: string;
  mode: ImportMode;
  /** Replace: the scope's old rows are gone (committed). */
  removed: boolean;
  /** An earlier apply of this file was cut short: this one finishes it. */
  resumable?: boolean;
}

const KEY = 'backup.import_progress';

export function importKey(file: EngramExport): string {
  const counts = Object.entries(file.tables).map(([name, rows]) => `${name}:${rows.length}`);
  return JSON.stringify([file.exportedAt, file.scope, counts]);
}

export function writeImportJournal(driver: SqlDriver, journal: ImportJournal): void {
  driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [KEY, JSON.stringify(journal)]);
}

export function readImportJournal(driver: SqlDriver): ImportJournal | null {
  const row = driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [KEY]);
  return row ? (JSON.parse(row.value) as ImportJournal) : null;
}

export function clearImportJournal(driver: SqlDriver): void {
  driver.run('DELETE FROM meta WHERE key = ?', [KEY]);
}
