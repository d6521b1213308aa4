/**
 * feedback.record as the Write page sends it, and what learning changed, in words the page can show
 * ("Learned: prefers shorter polish results"). The engine rolls a feedback back on TIMEOUT and says it
 * may be sent again (004 "用户取消/超时"), so it is retried once.
 */
import type { IpcError } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import type { Input } from '../../../engine/protocol/contract';

export interface Learned {
  kind: 'created' | 'updated';
  ruleId: string;
  /** The rule's text as the engine stores it (bilingual for learned rules). */
  rule: string;
}

export async function recordFeedback(opts: {
  engine: EngineCaller;
  projectId: string | null;
  input: Input<'feedback.record'>;
}): Promise<{ ok: true; learned: Learned[]; paused: boolean } | { ok: false; error: IpcError }> {
  let res = await opts.engine.call('feedback.record', opts.input);
  if (!res.ok && res.error.code === 'TIMEOUT') res = await opts.engine.call('feedback.record', opts.input);
  if (!res.ok) return { ok: false, error: res.error };
  const { created, updated, paused } = res.data.learning;
  if (created.length === 0 && updated.length === 0) return { ok: true, learned: [], paused };
  const rules = await opts.engine.call('rules.list', opts.projectId ? { projectId: opts.projectId } : {});
  // Learning happened either way; without the list the notice just cannot name the rule.
  const text = new Map(rules.ok ? rules.data.map((r) => [r.id, r.rule] as const) : []);
  const learned: Learned[] = [
    ...created.map((ruleId) => ({ kind: 'created' as const, ruleId, rule: text.get(ruleId) ?? '' })),
    ...updated.map((ruleId) => ({ kind: 'updated' as const, ruleId, rule: text.get(ruleId) ?? '' })),
  ];
  return { ok: true, learned, paused };
}
