/** Pure helpers of the memory panel's learning parts (seed 003), kept out of the components for tests. */
import type { RuleChange } from '../../../engine/semantic/types';

/** Jobs report steps as 'learning.step.patterns'; the i18n key is 'learning:step.patterns' ('jobs.step.x' likewise). */
export function stepKey(step: string): string {
  const dot = step.indexOf('.');
  return dot > 0 ? `${step.slice(0, dot)}:${step.slice(dot + 1)}` : step;
}

/** The panel's footer (003 "底部信息区：已积累的交互记录数、最近更新时间"): the newest change to a rule or a finished update. */
export function lastUpdated(opts: { rules: readonly { updatedAt: number }[]; lastDistill: number | null }): number | null {
  const times = [...opts.rules.map((r) => r.updatedAt), ...(opts.lastDistill === null ? [] : [opts.lastDistill])];
  return times.length ? Math.max(...times) : null;
}

/** What a history entry shows about confidence: a change, a first value, or nothing. */
export function confidenceChange(c: Pick<RuleChange, 'before' | 'after'>): { before: string; after: string } | { value: string } | null {
  const after = c.after?.confidence;
  if (after === undefined) return null;
  const before = c.before?.confidence;
  if (before === undefined) return { value: after.toFixed(2) };
  return before === after ? null : { before: before.toFixed(2), after: after.toFixed(2) };
}
