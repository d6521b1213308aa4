import type { IpcError, IpcResponse } from '../../domain/errors';
import type { Input, Method, Output } from '../protocol/contract';
import type { ImportFinish, ImportPlanPreview, ImportProgress } from './import-service';

/**
 * The import as every caller runs it — the app's backup page, the CLI, the benchmark — so the order of
 * calls and the take-back on failure live in one place:
 *
 *   applyStep … (progress after each) ─▶ done ─▶ finish
 *        └─ a failure, or `signal` aborted ─▶ cancel (everything written so far is taken back)
 */
export interface Caller {
  call<M extends Method>(method: M, input: Input<M>): Promise<IpcResponse<Output<M>>>;
}

export type DriveOutcome =
  | { kind: 'done'; result: ImportFinish; progress: ImportProgress }
  | { kind: 'canceled'; progress: ImportProgress | null }
  | { kind: 'failed'; error: IpcError; progress: ImportProgress | null };

export async function driveImport(opts: {
  engine: Caller;
  preview: Pick<ImportPlanPreview, 'token'>;
  onProgress?: (p: ImportProgress) => void;
  signal?: AbortSignal;
}): Promise<DriveOutcome> {
  const { engine } = opts;
  const token = opts.preview.token;
  let last: ImportProgress | null = null;
  const takeBack = async () => void (await engine.call('import.cancel', { token }));
  for (;;) {
    if (opts.signal?.aborted) {
      await takeBack();
      return { kind: 'canceled', progress: last };
    }
    const step = await engine.call('import.applyStep', { token });
    if (!step.ok) {
      await takeBack();
      return { kind: 'failed', error: step.error, progress: last };
    }
    last = step.data;
    opts.onProgress?.(last);
    if (last.done) break;
  }
  const finished = await engine.call('import.finish', { token });
  if (!finished.ok) return { kind: 'failed', error: finished.error, progress: last };
  return { kind: 'done', result: finished.data, progress: last };
}

/** Runs the background follow-up until nothing is left (the CLI, which has no jobs worker). */
export async function drainFollowUp(opts: { engine: Caller; limit?: number; onProgress?: (remaining: number) => void }) {
  const total = { sessions: 0, messages: 0, memories: 0, summaries: 0 };
  for (;;) {
    const r = await opts.engine.call('import.followUp', { limit: opts.limit ?? 200 });
    if (!r.ok) return { ok: false as const, error: r.error, total };
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r.data[k];
    opts.onProgress?.(r.data.remaining.messages);
    if (r.data.remaining.sessions === 0) return { ok: true as const, total };
  }
}
