import { EngineError } from '../../domain/errors';
import { EXCLUDED_TABLES, REGISTRY } from '../backup/registry';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';

/** What "Erase everything on this device" removed from the database and the project files. */
export interface EraseReport {
  rowsDeleted: number;
  projectsRemoved: number;
  /** The database file before and after (VACUUM gives the freed pages back to the file system). */
  bytesBefore: number;
  bytesAfter: number;
}

/** Kept: which migrations ran. Everything else of the file goes, so the next start is a first start. */
const KEPT = new Set(['schema_version']);

/**
 * The engine's part of "Erase everything on this device" (issue 15): every row of every table — user
 * data (the backup registry's tables, children first) and the engine's bookkeeping (idempotency
 * records, job runs, meta) — in one transaction, every full-text index emptied, then VACUUM so the
 * file shrinks to its bare schema, then every project's setting files. The page clears what lives
 * outside the database (IndexedDB, the OPFS project folder) and reloads every tab.
 *
 * Device-wide by design: a narrower "clear" (one project, memory only) is the memory manager's and
 * the cleanup's job.
 */
export function createEraser(env: Pick<EngineEnv, 'driver'>, deps: { files: ProjectFileStore; afterErase?: () => void }) {
  const { driver } = env;
  const bytes = () => Number(driver.get<{ n: number }>('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()')?.n ?? 0);

  return async function erase(input: { confirm: boolean }): Promise<EraseReport> {
    if (input.confirm !== true) {
      throw new EngineError('INVALID_ARGUMENT', 'Erasing everything needs `confirm: true`. Nothing was erased.', { fields: ['confirm'] });
    }
    const bytesBefore = bytes();
    const projects = driver.all<{ id: string }>('SELECT id FROM projects').map((p) => p.id);
    const userTables = [...REGISTRY].reverse().map((e) => e.spec.name as string);
    const present = new Set(driver.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => r.name));
    const bookkeeping = Object.keys(EXCLUDED_TABLES).filter((name) => !KEPT.has(name) && present.has(name));
    const fts = driver
      .all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'")
      .map((r) => r.name);
    let rowsDeleted = 0;
    driver.transaction(() => {
      for (const name of [...userTables, ...bookkeeping]) rowsDeleted += driver.run(`DELETE FROM ${name}`).changes;
      // The triggers already removed each row's index entries; this also drops anything an index held besides.
      for (const name of fts) driver.run(`INSERT INTO ${name}(${name}) VALUES('delete-all')`);
    });
    driver.exec('VACUUM');
    driver.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    for (const id of projects) await deps.files.deleteProject(id);
    deps.afterErase?.();
    return { rowsDeleted, projectsRemoved: projects.length, bytesBefore, bytesAfter: bytes() };
  };
}
