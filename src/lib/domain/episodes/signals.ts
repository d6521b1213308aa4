/**
 * Implicit feedback with seed 003's weights ("隐式反馈信号提取规则"):
 *
 *   what the user did                              signal                  weight             valence
 *   accepted an output unchanged                   strong-positive         high     0.8       +
 *   small edit (editDistance < 20 %)               weak-positive           medium   0.5       +
 *   edit between 20 % and 60 % (003 names none)    mixed                   low      0.2       0
 *   large rewrite (editDistance > 60 %)            weak-negative           medium   0.5       −
 *   rejected every candidate                       strong-negative         high     0.8       −
 *   undid an output it had accepted                delayed-negative        highest  1.0       −
 *   the same skill, again and again, on one scene  scene-skill-preference  low 0.2 per use, accumulating to 0.8
 *   "判断有误" on a generation's provenance          verdict-negative        high     0.8       −
 *
 * An undo does not erase the acceptance: the episode keeps what was chosen and kept, and its final signal
 * becomes the delayed negative (the episode ends negative, with the highest weight).
 */
import { distance } from 'fastest-levenshtein';

export const IMPLICIT_SIGNALS = [
  'strong-positive',
  'weak-positive',
  'mixed',
  'weak-negative',
  'strong-negative',
  'delayed-negative',
  'scene-skill-preference',
  'verdict-negative',
] as const;
export type ImplicitSignal = (typeof IMPLICIT_SIGNALS)[number];

export type SignalLevel = 'highest' | 'high' | 'medium' | 'low';

export const SIGNAL_TABLE: Record<ImplicitSignal, { level: SignalLevel; weight: number; valence: -1 | 0 | 1 }> = {
  'strong-positive': { level: 'high', weight: 0.8, valence: 1 },
  'weak-positive': { level: 'medium', weight: 0.5, valence: 1 },
  mixed: { level: 'low', weight: 0.2, valence: 0 },
  'weak-negative': { level: 'medium', weight: 0.5, valence: -1 },
  'strong-negative': { level: 'high', weight: 0.8, valence: -1 },
  'delayed-negative': { level: 'highest', weight: 1, valence: -1 },
  'scene-skill-preference': { level: 'low', weight: 0.2, valence: 1 },
  'verdict-negative': { level: 'high', weight: 0.8, valence: -1 },
};

/** 003: "小幅修改（editDistance < 20%）", "大幅改写（editDistance > 60%）". */
export const SMALL_EDIT = 0.2;
export const LARGE_REWRITE = 0.6;
/** A scene-skill preference stops growing here (003 "低（累积后变高）": low, high once accumulated). */
export const ACCUMULATED_CAP = 0.8;

/** 003 editDistance: Levenshtein distance over the longer text's length, 0..1 with three decimals. */
export function normalisedEditDistance(output: string, final: string): number {
  const longest = Math.max(output.length, final.length);
  if (longest === 0) return 0;
  return Math.round((distance(output, final) / longest) * 1000) / 1000;
}

export interface OutcomeInput {
  candidates: readonly string[];
  /** -1: every candidate rejected (003 selectedIndex). */
  selectedIndex: number;
  /** What the user kept; absent = the selected candidate unchanged. */
  finalText?: string | null;
}

export interface ClassifiedOutcome {
  signal: ImplicitSignal;
  /** null when nothing was kept. */
  editDistance: number | null;
}

export function classifyOutcome(o: OutcomeInput): ClassifiedOutcome {
  if (o.selectedIndex < 0) return { signal: 'strong-negative', editDistance: null };
  const chosen = o.candidates[o.selectedIndex] ?? '';
  const final = o.finalText ?? chosen;
  if (final === chosen) return { signal: 'strong-positive', editDistance: 0 };
  const d = normalisedEditDistance(chosen, final);
  return { signal: d < SMALL_EDIT ? 'weak-positive' : d > LARGE_REWRITE ? 'weak-negative' : 'mixed', editDistance: d };
}

/** The signed weight an episode carries into distillation (−1..1). */
export function valenceOf(signal: ImplicitSignal, uses = 1): number {
  const { weight, valence } = SIGNAL_TABLE[signal];
  const w = signal === 'scene-skill-preference' ? Math.min(ACCUMULATED_CAP, weight * Math.max(1, uses)) : weight;
  return Math.round(valence * w * 1000) / 1000;
}

/**
 * 003 episode `importance` (0..1): how much the episode says — the weight of its signal, a little more
 * when the user also wrote why (explicit feedback). Issue 19's decay multiplies by (1 + 0.3 · importance).
 */
export function importanceOf(signal: ImplicitSignal, opts: { explicit?: string | null; uses?: number } = {}): number {
  const base = Math.abs(valenceOf(signal, opts.uses)) || SIGNAL_TABLE[signal].weight;
  return Math.min(1, Math.round((base + (opts.explicit?.trim() ? 0.1 : 0)) * 100) / 100);
}

/** 004 feedback actions for the audit trail: unchanged → accept, edited → partial, nothing kept → reject. */
export function feedbackActionOf(signal: ImplicitSignal): 'accept' | 'partial' | 'reject' {
  if (signal === 'strong-positive' || signal === 'scene-skill-preference') return 'accept';
  if (signal === 'weak-positive' || signal === 'mixed' || signal === 'weak-negative') return 'partial';
  return 'reject';
}
