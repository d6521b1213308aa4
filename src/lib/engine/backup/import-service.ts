import {
  checkFileSize,
  emptyCounts,
  sniffExportHead,
  SNIFF_BYTES,
  type ConflictItem,
  type EngramExport,
  type ExportScope,
  type ImportMode,
  type TableCounts,
  type TableName,
} from '../../domain/backup';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { SqlDriver } from '../store/driver';
import type { ProjectFileStore } from '../files/project-file-store';
import { ownedProjects, startImport, type ApplyReport, type ImportRun } from './import-apply';
import type { TwoStep } from '../protocol/define';
import { runInSlices, SLICE_BUDGET_MS, slowestSlices, yieldToQueue, type SliceTiming } from '../store/slices';
import { clearImportJournal, importKey, readImportJournal, writeImportJournal } from './import-journal';
import { clearPendingFiles, readPendingFiles, recordPendingFiles, type PendingFiles } from './file-journal';
import { carryOut, planFiles, type FilePlan, type FilesReport } from './import-files';
import { readExportFile } from './read-export';
import { createMergePacer, type FtsTable } from '../store/fts-merge';
import { checkpointBetweenSlices } from '../store/checkpoint-slices';
import { REGISTRY } from './registry';

/**
 * Import in three calls, so that reading and checking a large file never blocks a write and the user
 * sees what will happen before anything does:
 *
 *   importPreview({ file, mode }) ── read piece by piece, validate; plan rows and files ─▶ token + counts
 *   importApply({ token, mode })  ── the rows in short transactions (issue 16: ~20 ms each, the worker free in
 *                                    between; importProgress tells how far), the file plan with the last ─▶ counts
 *   importFiles({ token })        ── carry out the plan (OPFS), idempotent; also at the next start ─▶ counts
 *
 * An apply cut short (the window closed, the worker crashed) leaves the rows of its committed slices and a
 * journal (import-journal.ts); applying the same file again resumes: a merge finds what is already there and
 * skips it, a replace does not remove its scope a second time.
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

export type ImportResult = Omit<ImportPreview, 'files' | 'file'> & {
  filesPending: number;
  /** This apply finished one that was cut short (its counts then count the rows already there as skipped). */
  resumed: boolean;
  /** importApply's slices: the slowest few, what each was made of (bench:speed lines them up with its waits). */
  slowSlices?: SliceTiming[];
};

export interface ImportProgress {
  /** previewing: its counts are being made (a preview by token; nothing is written). */
  state: 'previewing' | 'applying' | 'applied' | 'staged';
  rowsDone: number;
  totalRows: number;
  /** While applying: a replace's removal of the scope's old rows (scope-removal.ts), then the file's rows. */
  phase?: 'removal' | 'rows';
  /** A replace being applied: the scope's old rows removed so far, of those counted before its removal began. */
  removal?: { rowsDone: number; totalRows: number };
}

/** How far the file a preview was given has been read (backup.importReading): none is being read when `reading` is false. */
export interface ImportReading {
  reading: boolean;
  bytesRead: number;
  totalBytes: number;
}

/** One bounded step of an import (backup.importStep): rows written so far; the result once done. */
export type ImportStepResult = { done: false; rowsDone: number; rowsTotal: number } | ({ done: true; rowsDone: number; rowsTotal: number } & ImportResult);

interface Staged {
  token: string;
  file: EngramExport;
  info: ImportFileInfo;
  stagedAt: number;
  /** The files each previewed mode would write and remove (planned where reading files is possible: async). */
  plans: Partial<Record<ImportMode, FilePlan & { clearProjects: string[] }>>;
  applied: { mode: ImportMode; files: FilesReport } | null;
  /** An import being written in steps (importStep): where it stands. */
  stepping: { mode: ImportMode; run: ImportRun } | null;
  /** While importApply writes it. */
  applying: Omit<ImportProgress, 'state'> | null;
  /** While a preview counts what it would do. */
  previewing: { rowsDone: number; totalRows: number } | null;
}

const STAGE_TTL_MS = 30 * 60_000;

/**
 * WAL pages one apply slice may append (runInSlices' pageBudget), as the reindex's (REINDEX_PAGE_BUDGET): without
 * one its slices ran to the time budget alone, 53–100 pages a COMMIT at 100,000 turns (bench/results/wal-ab-100k.json).
 */
export const IMPORT_PAGE_BUDGET = 64;

/** The full-text indexes an import writes: those of the tables the file has rows for (a replace empties all). */
function ftsWrittenBy(file: EngramExport, mode: ImportMode): FtsTable[] {
  return REGISTRY.filter((e) => e.fts && (mode === 'replace' || file.tables[e.spec.name].length > 0)).map((e) => e.fts?.table as FtsTable);
}


/** A preview without its dry run: what the file brings, nothing about what it would change. */
function uncounted(driver: SqlDriver, file: EngramExport, mode: ImportMode): ApplyReport {
  const tables = Object.fromEntries(Object.entries(file.tables).map(([name, rows]) => [name, { ...emptyCounts(), incoming: rows.length }])) as Record<
    TableName,
    TableCounts
  >;
  return { mode, tables, conflicts: [], conflictsTotal: 0, clearProjects: ownedProjects(driver, file.scope) };
}

export function createImportService(deps: {
  env: Pick<EngineEnv, 'driver' | 'clock' | 'ids' | 'log'>;
  files: ProjectFileStore | undefined;
  /** The preview's slices (tests inject a clock that counts steps): how long one may run, and the clock that says. */
  previewSlices?: { budgetMs?: number; now?: () => number; onSlice?: (rowsDone: number) => void };
  /** The WAL pages written so far, read by the apply's checkpoints and page budget (default: the OPFS counters). */
  pagesWritten?: () => number | null;
  /** The apply's slices (tests inject a clock that counts steps, so slices end alike on any machine). */
  applySlices?: { budgetMs?: number; now?: () => number };
}) {
  const { driver, clock, ids, log } = deps.env;
  let staged: Staged | null = null;

  async function finish(pending: PendingFiles): Promise<void> {
    await carryOut(deps.files, pending);
    clearPendingFiles(driver, pending.token);
    log.info('backup.import-files-written', { writes: pending.writes.length, deletes: pending.deletes.length });
  }

  // An import whose rows committed but whose files were not all written (the window closed, a write
  // failed): finish it now.
  const owed = readPendingFiles(driver);
  if (owed)
    void finish(owed).catch((err: unknown) => log.error('backup.import-files-failed', { cause: err instanceof Error ? err.name : 'unknown' }));

  /** The file a preview is reading now (one at a time, as `staged`). */
  let reading: { bytesRead: number; totalBytes: number } | null = null;

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
    // Piece by piece, letting other calls run between pieces: never the whole text in memory at once. How far it
    // has come is kept for backup.importReading (the settings page shows it while the preview runs, issue 16).
    const read = { bytesRead: 0, totalBytes: blob.size };
    reading = read;
    const { file, migratedFrom } = await readExportFile(blob, { onRead: (bytesRead) => (read.bytesRead = bytesRead) }).finally(() => {
      if (reading === read) reading = null;
    });
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
    staged = { token, file, info, stagedAt: clock.now(), plans: {}, applied: null, stepping: null, applying: null, previewing: null };
    // A file nobody applies or discards must not hold the worker's memory until the next import.
    const timer = setTimeout(() => {
      if (staged?.token === token) staged = null;
    }, STAGE_TTL_MS) as { unref?: () => void };
    timer.unref?.();
    return staged;
  }

  /**
   * What an apply of `file` would do, counted by the apply's own code on a dry run (import-dry-run.ts: nothing
   * is written) in slices of ~SLICE_BUDGET_MS, the worker free in between (issue 16: it was one rolled-back
   * transaction, up to 8 s at 100,000 memories). A write that lands between two slices is seen by the slices
   * after it, as it would be by an apply; the apply checks the projects it replaces again.
   */
  async function count(s: Staged, mode: ImportMode): Promise<ApplyReport> {
    const run = startImport(driver, s.file, mode, { dryRun: true });
    const now = deps.previewSlices?.now ?? (() => performance.now());
    const budget = deps.previewSlices?.budgetMs ?? SLICE_BUDGET_MS;
    s.previewing = { rowsDone: 0, totalRows: run.totalRows };
    try {
      // Reading the file ended with its whole-file checks (completeExport): the calls queued meanwhile go first.
      await yieldToQueue();
      for (let more = true; more; ) {
        const t0 = now();
        do more = run.step();
        while (more && now() - t0 < budget);
        s.previewing.rowsDone = run.rowsDone;
        deps.previewSlices?.onSlice?.(run.rowsDone);
        if (more) await yieldToQueue();
      }
    } finally {
      s.previewing = null;
    }
    return run.report();
  }

  return {
    /**
     * `dryRun: false` reads, validates and plans without counting what the import would do (the Node host
     * imports in steps instead, and reports the counts at the end).
     */
    async preview(input: { mode: ImportMode; dryRun?: boolean } & ({ file: Blob } | { token: string })): Promise<ImportPreview> {
      const s = 'file' in input ? await stage(input.file) : mustGet(input.token);
      const r = input.dryRun === false ? uncounted(driver, s.file, input.mode) : await count(s, input.mode);
      const plan = await planFiles({ store: deps.files, files: s.file.files, mode: input.mode, clearProjects: r.clearProjects });
      s.plans[input.mode] = { ...plan, clearProjects: r.clearProjects };
      return { token: s.token, mode: input.mode, file: s.info, tables: r.tables, files: plan.report, conflicts: r.conflicts, conflictsTotal: r.conflictsTotal };
    },
    /**
     * In two steps (protocol/define.ts): the write checks the token and the plan and records the journal; then
     * the rows go in slices (store/slices.ts), the last of which also records the files the import owes
     * (file-journal.ts) — the rows and the files' plan are there together, or the journal says what is left.
     */
    apply(token: string, mode: ImportMode): TwoStep<{ token: string }, ImportResult> {
      return {
        announceAfter: true,
        write: () => {
          const s = mustGet(token);
          if (s.applying) throw new EngineError('CONFLICT', 'This import (`token`) is being applied already.', { field: 'token' });
          const plan = s.plans[mode];
          if (!plan)
            throw new EngineError('INVALID_ARGUMENT', 'Invalid `mode`: preview the file with this mode (backup.importPreview) before applying it.', {
              fields: ['mode'],
            });
          const key = importKey(s.file);
          const prior = readImportJournal(driver);
          const resume = prior !== null && prior.key === key && prior.mode === mode;
          // Replace clears the files of the projects the scope owned: those must be the ones the plan saw (an apply
          // that resumes one cut short has changed them itself).
          if (!resume && ownedProjects(driver, s.file.scope).join('\n') !== plan.clearProjects.join('\n'))
            throw new EngineError('CONFLICT', 'The projects this import replaces changed since its preview; preview it again. Nothing was imported.', {
              field: 'token',
            });
          // Seen again by a later apply only if this one is cut short: then that one resumes it.
          writeImportJournal(driver, resume ? { ...prior, resumable: true } : { key, mode, removed: false });
          s.applying = { rowsDone: 0, totalRows: 0 };
          return { token };
        },
        then: async (written) => {
          if (!written) throw new EngineError('CONFLICT', 'This import (its op id) was applied before.', { field: 'token' });
          const s = mustGet(token);
          const plan = s.plans[mode] as FilePlan & { clearProjects: string[] };
          const key = importKey(s.file);
          const journal = readImportJournal(driver);
          // The write step left a fresh journal unless one for this file was there: then this apply resumes it.
          const resumed = journal !== null && journal.key === key && journal.mode === mode && (journal.removed || journal.resumable === true);
          const skipRemoval = journal?.removed === true;
          const run = startImport(driver, s.file, mode, { skipRemoval, clearProjects: plan.clearProjects });
          const progress: Omit<ImportProgress, 'state'> = { rowsDone: 0, totalRows: run.totalRows };
          const report = () => {
            progress.rowsDone = run.rowsDone;
            const { removal } = run;
            progress.phase = removal && !removal.done ? 'removal' : 'rows';
            if (removal) progress.removal = { rowsDone: removal.rowsDone, totalRows: removal.totalRows };
          };
          report();
          let journalRemoved = skipRemoval;
          s.applying = progress;
          // FTS5 merges in steps of their own, not inside the slices' COMMITs (fts-merge.ts).
          const pacer = createMergePacer(driver, ftsWrittenBy(s.file, mode));
          let rowsWritten = false;
          const slow = slowestSlices();
          try {
            await runInSlices({
              // The WAL checkpointed between slices, not inside one's COMMIT (store/checkpoint-slices.ts, issue 16).
              driver: checkpointBetweenSlices(driver, deps.pagesWritten ? { pagesWritten: deps.pagesWritten } : {}).driver,
              budgetCoversCommit: true,
              // A slice lost to a power cut is written again when the same file is applied again (a merge skips what
              // is there; the journal, written with the slice that removed a replace's scope, says it was removed).
              resumable: true,
              ...(deps.applySlices?.budgetMs !== undefined ? { budgetMs: deps.applySlices.budgetMs } : {}),
              ...(deps.applySlices?.now ? { now: deps.applySlices.now } : {}),
              pageBudget: IMPORT_PAGE_BUDGET,
              ...(deps.pagesWritten ? { pagesWritten: deps.pagesWritten } : {}),
              // Each table the file writes, then the merges at the end: each begins with a one-step slice (slices.ts).
              phase: () => (rowsWritten ? 'merge' : run.phase),
              step: () => {
                if (!rowsWritten) {
                  if (pacer.during()) return true;
                  rowsWritten = !run.step();
                  if (run.removed && mode === 'replace' && !journalRemoved) writeImportJournal(driver, { key, mode, removed: (journalRemoved = true) });
                  return true;
                }
                if (pacer.finish()) return true;
                recordPendingFiles(driver, { token, report: plan.report, writes: plan.writes, deletes: plan.deletes });
                clearImportJournal(driver);
                return false;
              },
              onSlice: (_ms, timing) => {
                report();
                slow.note(timing);
              },
            });
          } finally {
            s.applying = null;
          }
          const r = run.report();
          s.applied = { mode, files: plan.report };
          log.info('backup.import-applied', { mode, conflicts: r.conflictsTotal, files: plan.writes.length + plan.deletes.length, resumed });
          return { token, mode, tables: r.tables, conflicts: r.conflicts, conflictsTotal: r.conflictsTotal, filesPending: plan.writes.length + plan.deletes.length, resumed, slowSlices: slow.list() };
        },
      };
    },
    /** How far the file being previewed has been read (the settings page shows it while the preview runs). */
    reading(): ImportReading {
      return reading ? { reading: true, ...reading } : { reading: false, bytesRead: 0, totalBytes: 0 };
    },
    /** How far importApply has come (the settings page shows it while it runs). */
    progress(token: string): ImportProgress {
      const s = mustGet(token);
      if (s.applying) return { state: 'applying', ...s.applying };
      if (s.previewing) return { state: 'previewing', ...s.previewing };
      const total = Object.values(s.file.tables).reduce((n, r) => n + r.length, 0);
      return { state: s.applied ? 'applied' : 'staged', rowsDone: s.applied ? total : 0, totalRows: total };
    },
    /**
     * Writes up to `maxRows` more rows of a previewed import, in the caller's (the engine's) write
     * transaction; the step that writes the last row also records the files the import owes, as apply
     * does. Between steps other writers get their turn — so the import as a whole is not one
     * transaction: a merge interrupted half-way is finished by importing the file again (rows already
     * in are skipped as identical).
     */
    step(token: string, mode: ImportMode, maxRows: number): ImportStepResult {
      const s = mustGet(token);
      const plan = s.plans[mode];
      if (!plan)
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `mode`: preview the file with this mode (backup.importPreview) before applying it.', {
          fields: ['mode'],
        });
      if (s.stepping && s.stepping.mode !== mode)
        throw new EngineError('CONFLICT', 'This import is already being written with the other `mode`; finish it or choose the file again.', { field: 'mode' });
      if (!s.stepping) {
        // Checked before the first row, since nothing written in a step can be taken back.
        if (ownedProjects(driver, s.file.scope).join('\n') !== plan.clearProjects.join('\n'))
          throw new EngineError('CONFLICT', 'The projects this import replaces changed since its preview; preview it again. Nothing was imported.', {
            field: 'token',
          });
        s.stepping = { mode, run: startImport(driver, s.file, mode, { clearProjects: plan.clearProjects }) };
      }
      const { run } = s.stepping;
      // The work of a call: rows written, and rows a replace's removal looked at (its pages write no file row).
      const work = () => run.rowsDone + (run.removal?.examined ?? 0);
      const from = work();
      let more = true;
      while (more && work() - from < maxRows) more = run.step(maxRows - (work() - from));
      if (more) return { done: false, rowsDone: run.rowsDone, rowsTotal: run.totalRows };
      const r = run.report();
      recordPendingFiles(driver, { token, report: plan.report, writes: plan.writes, deletes: plan.deletes });
      s.applied = { mode, files: plan.report };
      s.stepping = null;
      log.info('backup.import-applied', { mode, conflicts: r.conflictsTotal, files: plan.writes.length + plan.deletes.length, stepped: true });
      return {
        done: true,
        rowsDone: run.totalRows,
        rowsTotal: run.totalRows,
        token,
        mode,
        tables: r.tables,
        conflicts: r.conflicts,
        conflictsTotal: r.conflictsTotal,
        filesPending: plan.writes.length + plan.deletes.length,
        resumed: false,
      };
    },
    /** Writes the files an applied import owes (again, if a write failed before); the record goes once all are written. */
    async applyFiles(token: string): Promise<FilesReport> {
      const pending = readPendingFiles(driver);
      if (pending?.token === token) {
        await finish(pending);
        if (staged?.token === token) staged = null;
        return pending.report;
      }
      const s = mustGet(token);
      if (!s.applied)
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `token`: apply the import (backup.importApply) before its files.', { fields: ['token'] });
      // Applied, and its files already written (at a restart, or by an earlier call).
      staged = null;
      return s.applied.files;
    },
    discard(token: string): boolean {
      // An apply in progress keeps its file until it is done.
      if (!staged || staged.token !== token || staged.applying) return false;
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
