/**
 * Test support for backup: an engine whose database file can be imported, data in every table, a
 * canonical dump read straight from SQLite (not through the exporter), and the export/import flows
 * as the UI runs them.
 */
import { canonicalDump, type CanonicalDump, type ExportScope, type ImportMode } from '../../domain/backup';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine, type Engine } from '../engine';
import { memoryProjectFileStore, type ProjectFileStore } from '../files/project-file-store';
import type { SqlDriver } from '../store/driver';
import { migrations } from '../store/migrations';
import { loadSqlite3, openWasmDatabase } from '../store/open-wasm';
import { T0, expectOk } from '../testing';
import { provideDbFileAccess } from './db-file-access';
import { EXCLUDED_TABLES, REGISTRY } from './registry';
import { ftsTables, schemaTables } from './schema-tables';

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

const hidden = new Map(REGISTRY.map((e) => [e.spec.name, e.spec.hidden ?? []]));

/** Every ordinary table's rows (hidden internal keys aside) and every project file, canonically. */
export async function dumpDatabase(t: Pick<BackupTestEngine, 'driver' | 'files'>): Promise<CanonicalDump> {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const name of schemaTables(t.driver)) {
    if (name in EXCLUDED_TABLES) continue;
    const drop = hidden.get(name as never) ?? [];
    tables[name] = t.driver.all<Record<string, unknown>>(`SELECT * FROM ${name}`).map((r) => {
      const row = { ...r };
      for (const h of drop) delete row[h];
      return row;
    });
  }
  const projects = t.driver.all<{ id: string }>('SELECT id FROM projects').map((r) => r.id);
  const files = [];
  for (const projectId of projects) {
    for (const e of await t.files.list(projectId)) files.push({ projectId, path: e.path, content: (await t.files.read(projectId, e.path)) ?? '' });
  }
  return canonicalDump({ tables, files });
}

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
