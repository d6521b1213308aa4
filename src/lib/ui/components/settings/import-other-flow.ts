import type { ImportSource } from '../../../domain/imports';
import type { IpcError } from '../../../domain/errors';
import type { ImportPlanPreview } from '../../../engine/imports';
import { driveImport, type DriveOutcome } from '../../../engine/imports/drive';
import type { EngineCaller } from '../../../engine/client/caller';
import type { ImportProgress } from '../../../engine/imports';
import { readPercent, watched } from './backup-import-flow';

/**
 * An import from another app as the backup page runs it. The files go to the DB worker as they are
 * (a File is structured-cloneable), so reading even a large export never blocks the page:
 *
 *   choose files ─▶ import.preview ─▶ what will be added
 *                   └ import.reading every PROGRESS_EVERY_MS meanwhile ─▶ "reading the files: n %"
 *   Import ──────▶ import.applyStep … (progress bar) ─▶ import.finish ─▶ the background learns from it
 *   Stop ────────▶ import.cancel (everything written so far is taken back)
 */
export type ImportChoice = ImportSource | 'auto';

/** A chosen file as the engine wants it: a folder's files are named by their path inside it. */
export function namedFiles(files: Iterable<File>): { name: string; file: File }[] {
  return [...files].map((f) => ({ name: f.webkitRelativePath ? f.webkitRelativePath.split('/').slice(1).join('/') || f.name : f.name, file: f }));
}

/** `onRead`: how much of the files the DB worker has read, in whole percent, while it reads them (issue 16). */
export async function previewImport(
  engine: EngineCaller,
  input: { source: ImportChoice; files: { name: string; file: File }[]; projectId?: string; projectName?: string },
  onRead?: (percent: number) => void,
): Promise<{ ok: true; preview: ImportPlanPreview } | { ok: false; error: IpcError }> {
  const look = async () => {
    const r = await engine.call('import.reading', {});
    return r.ok ? readPercent(r.data) : null;
  };
  const res = await watched(() => engine.call('import.preview', input), onRead ? look : null, (p) => onRead?.(p));
  return res.ok ? { ok: true, preview: res.data } : { ok: false, error: res.error };
}

export function runImport(opts: { engine: EngineCaller; preview: ImportPlanPreview; onProgress: (p: ImportProgress) => void; signal: AbortSignal }): Promise<DriveOutcome> {
  return driveImport(opts);
}

/** Nothing would change: the Import button has nothing to do. */
export function nothingToImport(p: ImportPlanPreview): boolean {
  return p.messages.add === 0 && (p.lorebook === null || p.lorebook.files.add === 0);
}

export const progressFraction = (p: ImportProgress | null): number | undefined =>
  p === null ? undefined : p.messages.total === 0 ? 1 : p.messages.done / p.messages.total;
