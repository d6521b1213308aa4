/**
 * Implicit feedback from what the user did with a skill's output (seed 003 "隐式反馈信号提取规则"):
 *
 *   what the user did                          signal            strength
 *   accepted unchanged                         positive          strong
 *   small edit (editDistance < 20 %)           positive          weak
 *   edit between 20 % and 60 %                 mixed             —
 *   large rewrite (editDistance > 60 %)        negative          weak
 *   rejected                                   negative          strong
 *   undid an accepted output                   negative          delayed (strongest)
 *
 * The engine's feedback.record knows three actions (seed 004): unchanged → `accept`, edited → `partial`
 * (with the distance, so the learner can weigh it), rejected or undone → `reject`.
 */
import { distance } from 'fastest-levenshtein';

export type FeedbackAction = 'accept' | 'reject' | 'partial';
export type ImplicitSignal = 'strong-positive' | 'weak-positive' | 'mixed' | 'weak-negative' | 'strong-negative' | 'delayed-negative';

/** 003: "小幅修改（editDistance < 20%）", "大幅改写（editDistance > 60%）". */
export const SMALL_EDIT = 0.2;
export const LARGE_REWRITE = 0.6;

/**
 * Levenshtein distance over the longer text's length, 0..1 with three decimals — the same measure the
 * engine computes when it is not given one (feedback-service `relativeDistance`).
 */
export function normalisedEditDistance(output: string, final: string): number {
  const longest = Math.max(output.length, final.length);
  if (longest === 0) return 0;
  return Math.round((distance(output, final) / longest) * 1000) / 1000;
}

export type UserOutcome = { kind: 'kept'; output: string; final: string } | { kind: 'rejected' } | { kind: 'undone' };

export function classifyFeedback(outcome: UserOutcome): { action: FeedbackAction; signal: ImplicitSignal; editDistance: number | null } {
  if (outcome.kind === 'rejected') return { action: 'reject', signal: 'strong-negative', editDistance: null };
  if (outcome.kind === 'undone') return { action: 'reject', signal: 'delayed-negative', editDistance: null };
  const d = normalisedEditDistance(outcome.output, outcome.final);
  if (outcome.output === outcome.final) return { action: 'accept', signal: 'strong-positive', editDistance: 0 };
  const signal: ImplicitSignal = d < SMALL_EDIT ? 'weak-positive' : d > LARGE_REWRITE ? 'weak-negative' : 'mixed';
  return { action: 'partial', signal, editDistance: d };
}
