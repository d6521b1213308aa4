import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import { checkDbFile, exportDbFile, importDbFile } from './db-file';
import { createExportService } from './export-service';
import { createImportService } from './import-service';

/**
 * Backup (issue 6), wired once per open database:
 *
 *   handlers/backup.ts ─▶ export-service (chunked JSON, progress, cancel) ─┐
 *                      ─▶ import-service (preview · apply · files) ────────┼─▶ registry.ts (ONE table list,
 *                      ─▶ db-file (sqlite3 image: export, check, import)   │   scope SQL, FTS) + domain/backup
 */
export function createBackupServices(deps: { env: EngineEnv; files: ProjectFileStore | undefined }) {
  const { env } = deps;
  const exports = createExportService({ env, files: deps.files });
  const imports = createImportService({ env, files: deps.files });
  return {
    exports,
    imports,
    exportDbFile: () => exportDbFile(env),
    checkDbFile: (file: Blob) => checkDbFile(env, file),
    async importDbFile(file: Blob) {
      const check = await importDbFile(env, file);
      // Open export cursors and a previewed import were read against the database just replaced.
      exports.cancelAll();
      imports.discardAll();
      return check;
    },
  };
}

export type BackupServices = ReturnType<typeof createBackupServices>;
export type { ExportChunk, ExportStarted } from './export-service';
export type { ImportPreview, ImportProgress, ImportReading, ImportResult, ImportStepResult } from './import-service';
export type { FilesReport } from './import-files';
export type { DbFileCheck, DbFileExport } from './db-file';
