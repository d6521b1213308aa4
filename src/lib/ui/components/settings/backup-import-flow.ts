import { TABLE_NAMES, type ImportMode, type TableCounts, type TableName } from '../../../domain/backup';
import type { IpcError } from '../../../domain/errors';
import type { FilesReport, ImportPreview, ImportProgress, ImportReading, ImportResult } from '../../../engine/backup';
import type { EngineCaller } from '../../../engine/client/caller';

/**
 * The import as the settings page runs it. The file goes to the DB worker as it is (a File is
 * structured-cloneable), so reading and checking even a large file never blocks the page:
 *
 *   choose file ─▶ importPreview({ file, mode }) ─▶ table of add/update/skip/conflict
 *                  └ importReading({}) every PROGRESS_EVERY_MS meanwhile ─▶ "reading the file: n %"
 *   change mode ─▶ importPreview({ token, mode })   (no second read)
 *   Apply ──────▶ importApply({ token, mode }) ─▶ importFiles({ token }) ─▶ counts
 *                  └ importProgress({ token }) every PROGRESS_EVERY_MS meanwhile ─▶ "n of m rows"
 */
export type PreviewOutcome = { ok: true; preview: ImportPreview } | { ok: false; error: IpcError };

/** `onRead`: how much of the file the DB worker has read, in whole percent, while it reads it (issue 16). */
export async function previewFile(engine: EngineCaller, file: Blob, mode: ImportMode, onRead?: (percent: number) => void): Promise<PreviewOutcome> {
  const look = async () => {
    const r = await engine.call('backup.importReading', {});
    return r.ok ? readPercent(r.data) : null;
  };
  const r = await watched(() => engine.call('backup.importPreview', { file, mode }), onRead ? look : null, (p) => onRead?.(p));
  return r.ok ? { ok: true, preview: r.data } : { ok: false, error: r.error };
}

/** A read's progress in whole percent (null: no file is being read). Never 100 before the last byte. */
export function readPercent(r: ImportReading): number | null {
  if (!r.reading) return null;
  if (r.totalBytes <= 0 || r.bytesRead >= r.totalBytes) return 100;
  return Math.floor((r.bytesRead / r.totalBytes) * 100);
}

/**
 * Runs `work`, asking `look` every PROGRESS_EVERY_MS meanwhile and handing what it finds (null: nothing to show)
 * to `show` — never after `work` has ended. (Also the import from other apps, import-other-flow.ts.)
 */
export async function watched<T, P>(work: () => Promise<T>, look: (() => Promise<P | null>) | null, show: (p: P) => void): Promise<T> {
  let running = true;
  const watching = (async () => {
    while (look && running) {
      await new Promise((r) => setTimeout(r, PROGRESS_EVERY_MS));
      if (!running) break;
      const p = await look();
      if (running && p !== null) show(p);
    }
  })();
  try {
    return await work();
  } finally {
    running = false;
    await watching;
  }
}

export function previewAgain(engine: EngineCaller, token: string, mode: ImportMode): Promise<PreviewOutcome> {
  return engine.call('backup.importPreview', { token, mode }).then((r) => (r.ok ? { ok: true, preview: r.data } : { ok: false, error: r.error }));
}

export type ApplyOutcome =
  | { ok: true; result: ImportResult; files: FilesReport }
  /** `applied`: the database part committed and only the project files failed (they can be retried). */
  | { ok: false; error: IpcError; applied: ImportResult | null };

/** How often the page asks how far an apply has come (it runs in slices in the DB worker, issue 16). */
export const PROGRESS_EVERY_MS = 250;

/** What the Apply button says while an apply runs: a replace's removal of the old rows first, then the file's rows. */
export interface ShownProgress {
  rowsDone: number;
  totalRows: number;
  removing: boolean;
}

export function shownProgress(p: ImportProgress): ShownProgress {
  return p.phase === 'removal' && p.removal
    ? { rowsDone: p.removal.rowsDone, totalRows: p.removal.totalRows, removing: true }
    : { rowsDone: p.rowsDone, totalRows: p.totalRows, removing: false };
}

export async function applyPreviewed(
  engine: EngineCaller,
  preview: Pick<ImportPreview, 'token' | 'mode'>,
  onProgress?: (p: ImportProgress) => void,
): Promise<ApplyOutcome> {
  const look = async () => {
    const p = await engine.call('backup.importProgress', { token: preview.token });
    return p.ok && p.data.state === 'applying' ? p.data : null;
  };
  const applied = await watched(() => engine.call('backup.importApply', { token: preview.token, mode: preview.mode }), onProgress ? look : null, (p) => onProgress?.(p));
  if (!applied.ok) return { ok: false, error: applied.error, applied: null };
  const files = await engine.call('backup.importFiles', { token: preview.token });
  if (!files.ok) return { ok: false, error: files.error, applied: applied.data };
  return { ok: true, result: applied.data, files: files.data };
}

export interface CountsRow {
  table: TableName | 'files';
  counts: Omit<TableCounts, 'incoming'> & { incoming: number };
}

/** The rows of the preview/result table: tables the import touches, in file order, then the files. */
export function countRows(tables: Record<TableName, TableCounts>, files?: FilesReport): CountsRow[] {
  const rows: CountsRow[] = TABLE_NAMES.map((table) => ({ table, counts: tables[table] })).filter(
    (r) => r.counts && (r.counts.incoming > 0 || r.counts.removed > 0),
  );
  if (files && (files.incoming > 0 || files.removed > 0)) rows.push({ table: 'files', counts: files });
  return rows;
}

export function totals(rows: readonly CountsRow[]): Omit<TableCounts, 'incoming'> & { incoming: number } {
  const sum = { incoming: 0, add: 0, update: 0, skip: 0, conflict: 0, removed: 0 };
  for (const { counts } of rows) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += counts[k];
  return sum;
}

/** The field an INVALID_ARGUMENT names (e.g. `tables.memories[3].confidence`), for a translated message. */
export function failedField(error: IpcError): string | null {
  const fields = error.details?.fields;
  return Array.isArray(fields) && typeof fields[0] === 'string' ? fields[0] : null;
}
