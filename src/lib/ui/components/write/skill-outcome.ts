/**
 * What the Write page sends when the user has decided about a skill's output (seed 003 "AI 技能执行后自动
 * 记录情景"): one `episode.record` — the candidates, which one was chosen, what was kept, the user's own
 * words — or, for an undo, `{ runId, undo: true }`. The engine writes the episode and the 004 audit event
 * together; learning itself happens later, in the jobs worker (distillation), which is nudged when the
 * engine says one is due (003 批量触发 / 冲突触发).
 *
 * Fire-and-forget from the writer's point of view: the text is applied first, the record follows, and
 * only a failure is shown.
 */
import type { IpcError } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import type { Input } from '../../../engine/protocol/contract';

export interface RecordedOutcome {
  episodeId: string;
  /** preferences.learning is off: recorded, nothing will be learned from it until it is on again. */
  paused: boolean;
}

export async function recordOutcome(opts: {
  engine: EngineCaller;
  input: Input<'episode.record'>;
  /** Starts a distillation check in the jobs worker. */
  kickDistill?: () => void;
}): Promise<{ ok: true; outcome: RecordedOutcome } | { ok: false; error: IpcError }> {
  const res = await opts.engine.call('episode.record', opts.input);
  if (!res.ok) return { ok: false, error: res.error };
  if (res.data.distillDue !== null) opts.kickDistill?.();
  return { ok: true, outcome: { episodeId: res.data.episode.id, paused: res.data.learningPaused } };
}
