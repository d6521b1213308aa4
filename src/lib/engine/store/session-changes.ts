import type { SqlDriver } from './driver';

/**
 * Which conversations a write changed, so a list of them can update those rows instead of reading the whole
 * list again after every write (issue 16). TEMP triggers on `sessions` note every inserted, updated or deleted
 * id, whatever code path (repository, cleanup, import, a foreign key's SET NULL) did it; the engine takes the
 * notes after each write. TEMP objects belong to this connection alone and are never written to the file.
 *
 *   write ─▶ triggers note ids in temp.session_changes ─▶ take() ─▶ { changed, deleted } | 'many' | null
 *
 * A write that touched more than MAX_LISTED conversations (an import, a cleanup) answers 'many': read the
 * list again.
 */
export type SessionChangeSet = { changed: string[]; deleted: string[] } | 'many';

export const MAX_LISTED = 50;

const SETUP = `
CREATE TEMP TABLE IF NOT EXISTS session_changes (id TEXT PRIMARY KEY, deleted INTEGER NOT NULL) WITHOUT ROWID;
CREATE TEMP TRIGGER IF NOT EXISTS session_changes_insert AFTER INSERT ON main.sessions BEGIN
  INSERT INTO session_changes (id, deleted) VALUES (new.id, 0) ON CONFLICT (id) DO UPDATE SET deleted = 0;
END;
CREATE TEMP TRIGGER IF NOT EXISTS session_changes_update AFTER UPDATE ON main.sessions BEGIN
  INSERT INTO session_changes (id, deleted) VALUES (new.id, 0) ON CONFLICT (id) DO UPDATE SET deleted = 0;
END;
CREATE TEMP TRIGGER IF NOT EXISTS session_changes_delete AFTER DELETE ON main.sessions BEGIN
  INSERT INTO session_changes (id, deleted) VALUES (old.id, 1) ON CONFLICT (id) DO UPDATE SET deleted = 1;
END;`;

export function createSessionChangeLog(driver: SqlDriver) {
  driver.exec(SETUP);
  return {
    /** The ids noted since the last take (and forgets them); null when no conversation changed. */
    take(): SessionChangeSet | null {
      const n = driver.get<{ n: number }>('SELECT count(*) AS n FROM temp.session_changes')?.n ?? 0;
      if (n === 0) return null;
      const rows = n > MAX_LISTED ? [] : driver.all<{ id: string; deleted: number }>('SELECT id, deleted FROM temp.session_changes');
      driver.run('DELETE FROM temp.session_changes');
      if (n > MAX_LISTED) return 'many';
      return { changed: rows.filter((r) => !r.deleted).map((r) => r.id), deleted: rows.filter((r) => r.deleted).map((r) => r.id) };
    },
  };
}
