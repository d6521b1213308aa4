import {
  checkFileSize,
  parseJsonSafely,
  sniffExportHead,
  SNIFF_BYTES,
  validateExport,
  type ConflictItem,
  type EngramExport,
  type ExportScope,
  type ImportMode,
  type TableCounts,
  type TableName,
} from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { ProjectFileStore } from '../files/project-file-store';
import { applyImport, type ApplyReport } from './import-apply';
import { importFiles, type FilesReport } from './import-files';

/**
 * Import in three calls, so that reading and checking a large file never blocks a write and the user
 * sees what will happen before anything does:
 *
 *   importPreview({ file, mode }) ── read, sniff, parse, validate (nothing written) ─▶ token + counts
 *   importApply({ token, mode })  ── one write transaction: all rows or none ─────────▶ counts
 *   importFiles({ token })        ── project setting files (OPFS), idempotent ─────────▶ counts
 *
 * The parsed file waits in the worker's memory under its token (one at a time, 30 minutes at most).
 */
export interface ImportFileInfo {
  version: number;
  /** The version the file was written in; older files are migrated before validation. */
  migratedFrom: number;
  exportedAt: string;
  app: EngramExport['app'];
  scope: ExportScope;
  bytes: number;
}

export interface ImportPreview {
  token: string;
  mode: ImportMode;
  file: ImportFileInfo;
  tables: Record<TableName, TableCounts>;
  files: FilesReport;
  conflicts: ConflictItem[];
  conflictsTotal: number;
}

export type ImportResult = Omit<ImportPreview, 'files' | 'file'> & { filesPending: number };

interface Staged {
  token: string;
  file: EngramExport;
  info: ImportFileInfo;
  stagedAt: number;
  applied: Pick<ApplyReport, 'mode' | 'clearProjects'> | null;
}

const STAGE_TTL_MS = 30 * 60_000;

/** Thrown inside the preview's transaction to roll it back. */
class PreviewRollback extends Error {}

export function createImportService(deps: { env: Pick<EngineEnv, 'driver' | 'clock' | 'ids' | 'log'>; files: ProjectFileStore | undefined }) {
  const { driver, clock, ids, log } = deps.env;
  let staged: Staged | null = null;

  function mustGet(token: string): Staged {
    if (staged && clock.now() - staged.stagedAt > STAGE_TTL_MS) staged = null;
    if (!staged || staged.token !== token)
      throw new EngineError('NOT_FOUND', 'No import with that `token` (it was applied, discarded or replaced by another file). Choose the file again.', {
        field: 'token',
      });
    return staged;
  }

  async function stage(blob: Blob): Promise<Staged> {
    staged = null; // one file at a time: a new choice frees the last one
    checkFileSize(blob.size);
    sniffExportHead(await blob.slice(0, SNIFF_BYTES).text());
    const { file, migratedFrom } = validateExport(parseJsonSafely(await blob.text()));
    const info: ImportFileInfo = {
      version: file.version,
      migratedFrom,
      exportedAt: file.exportedAt,
      app: file.app,
      scope: file.scope,
      bytes: blob.size,
    };
    const rows = Object.values(file.tables).reduce((n, r) => n + r.length, 0);
    log.info('backup.import-staged', { bytes: blob.size, rows, files: file.files.length, from: migratedFrom });
    const token = `import-${ids()}`;
    staged = { token, file, info, stagedAt: clock.now(), applied: null };
    // A file nobody applies or discards must not hold the worker's memory until the next import.
    const timer = setTimeout(() => {
      if (staged?.token === token) staged = null;
    }, STAGE_TTL_MS) as { unref?: () => void };
    timer.unref?.();
    return staged;
  }

  return {
    async preview(input: { mode: ImportMode } & ({ file: Blob } | { token: string })): Promise<ImportPreview> {
      const s = 'file' in input ? await stage(input.file) : mustGet(input.token);
      let report: ApplyReport | null = null;
      try {
        driver.transaction(() => {
          report = applyImport(driver, s.file, input.mode);
          throw new PreviewRollback();
        });
      } catch (err) {
        if (!(err instanceof PreviewRollback)) throw err;
      }
      const r = report as unknown as ApplyReport;
      const files = await importFiles({ store: deps.files, files: s.file.files, mode: input.mode, clearProjects: r.clearProjects, write: false });
      return { token: s.token, mode: input.mode, file: s.info, tables: r.tables, files, conflicts: r.conflicts, conflictsTotal: r.conflictsTotal };
    },
    /** Synchronous: runs inside the engine's write transaction. */
    apply(token: string, mode: ImportMode): ImportResult {
      const s = mustGet(token);
      const r = applyImport(driver, s.file, mode);
      s.applied = { mode, clearProjects: r.clearProjects };
      log.info('backup.import-applied', { mode, conflicts: r.conflictsTotal });
      return { token, mode, tables: r.tables, conflicts: r.conflicts, conflictsTotal: r.conflictsTotal, filesPending: s.file.files.length };
    },
    async applyFiles(token: string): Promise<FilesReport> {
      const s = mustGet(token);
      if (!s.applied)
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `token`: apply the import (backup.importApply) before its files.', { fields: ['token'] });
      const report = await importFiles({ store: deps.files, files: s.file.files, mode: s.applied.mode, clearProjects: s.applied.clearProjects, write: true });
      staged = null;
      return report;
    },
    discard(token: string): boolean {
      if (!staged || staged.token !== token) return false;
      staged = null;
      return true;
    },
    /** The database was replaced: a previewed file's counts no longer hold. */
    discardAll(): void {
      staged = null;
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
