import type { ExportScope } from '../../../domain/backup';
import type { IpcError } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import type { SaveTarget } from './backup-save';

/**
 * The export as the settings page runs it: begin, then piece by piece into the save target, reporting
 * progress, until done — or until the user cancels, which stops the engine's cursor and drops the
 * half-written file.
 *
 *   click ─▶ save dialog ─▶ exportBegin ─▶ exportChunk ─▶ write ─▶ … ─▶ close   (Cancel ─▶ exportCancel, abort)
 */
export interface ExportProgress {
  rowsDone: number;
  totalRows: number;
  filesDone: number;
  totalFiles: number;
  /** 0…1 */
  fraction: number;
}

export type ExportOutcome =
  | { kind: 'done'; rows: number; files: number; chars: number }
  | { kind: 'canceled' }
  | { kind: 'failed'; error: IpcError };

export const progressOf = (p: Omit<ExportProgress, 'fraction'>): ExportProgress => {
  const total = p.totalRows + p.totalFiles;
  return { ...p, fraction: total === 0 ? 1 : Math.min(1, (p.rowsDone + p.filesDone) / total) };
};

export async function runExport(opts: {
  engine: EngineCaller;
  scope: ExportScope;
  target: SaveTarget;
  signal: AbortSignal;
  onProgress: (p: ExportProgress) => void;
  chunkChars?: number;
}): Promise<ExportOutcome> {
  const { engine, target, signal } = opts;
  const begun = await engine.call('backup.exportBegin', { scope: opts.scope });
  if (!begun.ok) {
    await target.abort();
    return { kind: 'failed', error: begun.error };
  }
  const { exportId } = begun.data;
  opts.onProgress(progressOf({ rowsDone: 0, totalRows: begun.data.totalRows, filesDone: 0, totalFiles: begun.data.totalFiles }));
  let chars = 0;
  try {
    for (;;) {
      if (signal.aborted) {
        await engine.call('backup.exportCancel', { exportId });
        await target.abort();
        return { kind: 'canceled' };
      }
      const res = await engine.call('backup.exportChunk', { exportId, maxChars: opts.chunkChars });
      if (!res.ok) {
        await target.abort();
        return { kind: 'failed', error: res.error };
      }
      await target.write(res.data.text);
      chars += res.data.text.length;
      opts.onProgress(progressOf(res.data));
      if (res.data.done) {
        await target.close();
        return { kind: 'done', rows: res.data.rowsDone, files: res.data.filesDone, chars };
      }
    }
  } catch (err) {
    // The disk is full, or the file was taken away: stop the cursor, keep no half file.
    await engine.call('backup.exportCancel', { exportId });
    await target.abort().catch(() => undefined);
    const message = err instanceof Error ? err.name : 'write failed';
    return { kind: 'failed', error: { code: 'INTERNAL', message } };
  }
}
