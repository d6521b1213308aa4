/**
 * Test support for backup: an engine whose database file can be imported, data in every table, a
 * canonical dump read straight from SQLite (not through the exporter), and the export/import flows
 * as the UI runs them.
 */
import type { ExportScope, ImportMode } from '../../domain/backup';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine, type Engine } from '../engine';
import { memoryProjectFileStore, type ProjectFileStore } from '../files/project-file-store';
import type { SqlDriver } from '../store/driver';
import { migrations } from '../store/migrations';
import { loadSqlite3, openWasmDatabase } from '../store/open-wasm';
import { T0, expectOk } from '../testing';
import { provideDbFileAccess } from './db-file-access';
import { dumpDatabase } from './dump';
import { REGISTRY } from './registry';
import { ftsTables } from './schema-tables';

export async function createBackupTestEngine(opts: { now?: number; idPrefix?: string } = {}) {
  const clock = fixedClock(opts.now ?? T0);
  const log = memoryLogger();
  const opened = await openWasmDatabase({ persistent: false, log });
  provideDbFileAccess(opened.driver, { sqlite3: await loadSqlite3(), db: opened.db, migrations });
  const files = memoryProjectFileStore(clock);
  const engine = createEngine(
    { driver: opened.driver, clock, ids: sequentialIds(opts.idPrefix ?? 't'), log, storage: opened.storage, startedAt: clock.now(), files },
    migrations,
  );
  return { engine, clock, log, driver: opened.driver, files };
}

export type BackupTestEngine = Awaited<ReturnType<typeof createBackupTestEngine>>;

/**
 * What each full-text index holds, independent of rowids: per term, in how many documents and how
 * often (fts5vocab 'row'). Equal digests mean an import rebuilt the index the repositories would have.
 */
export function ftsDigest(driver: SqlDriver): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const fts of ftsTables(driver)) {
    driver.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_${fts} USING fts5vocab(main, ${fts}, 'row')`);
    out[fts] = driver.all<{ term: string; doc: number; cnt: number }>(`SELECT term, doc, cnt FROM temp.vocab_${fts} ORDER BY term`).map(
      (r) => `${r.term}|${r.doc}|${r.cnt}`,
    );
    out[`${fts}#rows`] = [String(driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${fts}_docsize`)?.n ?? 0)];
  }
  return out;
}

/** Runs an export to its end, as the UI does, and returns the file's text. */
export async function exportText(engine: Engine, scope: ExportScope = { kind: 'all' }, maxChars?: number): Promise<string> {
  const started = expectOk(await engine.call('backup.exportBegin', { scope }));
  const parts: string[] = [];
  for (;;) {
    const chunk = expectOk(await engine.call('backup.exportChunk', { exportId: started.exportId, maxChars }));
    parts.push(chunk.text);
    if (chunk.done) return parts.join('');
  }
}

/** Preview, apply and files, as the UI does; returns every step's answer. */
export async function importText(engine: Engine, text: string, mode: ImportMode) {
  const preview = expectOk(await engine.call('backup.importPreview', { file: new Blob([text]), mode }));
  const result = expectOk(await engine.call('backup.importApply', { token: preview.token, mode }));
  const files = expectOk(await engine.call('backup.importFiles', { token: preview.token }));
  return { preview, result, files };
}

/** Whatever the scope owned is gone and the database is empty of user data (a new device). */
export async function wipe(t: Pick<BackupTestEngine, 'driver' | 'files'>): Promise<void> {
  const projects = t.driver.all<{ id: string }>('SELECT id FROM projects').map((r) => r.id);
  for (const { spec } of [...REGISTRY].reverse()) t.driver.run(`DELETE FROM ${spec.name}`);
  for (const p of projects) await t.files.deleteProject(p);
}

export type { ProjectFileStore };
export { dumpDatabase };

/** Reads an export service's pieces to the end (a service made in a test, with its own options). */
export async function drainExport(
  service: { chunk(exportId: string, maxChars: number): Promise<{ text: string; done: boolean; rowsDone: number }> },
  exportId: string,
  maxChars = 16_384,
): Promise<{ text: string; rows: number }> {
  let text = '';
  for (;;) {
    const c = await service.chunk(exportId, maxChars);
    text += c.text;
    if (c.done) return { text, rows: c.rowsDone };
  }
}
