/**
 * 003 "为什么这样写？": a run's trace references grouped by memory type, each with its influence weight as
 * a percentage (the engine's weights sum to 1 over a trace).
 */
import type { TraceReference } from '../../../engine/context/types';

export const TRACE_TYPES: readonly TraceReference['type'][] = ['semantic', 'profile', 'file', 'memory', 'episode', 'summary', 'working'];

export interface TraceGroup {
  type: TraceReference['type'];
  /** The group's share, 0–100 with one decimal. */
  percent: number;
  refs: (TraceReference & { percent: number })[];
}

const pct = (w: number) => Math.round(w * 1000) / 10;

export function groupReferences(refs: readonly TraceReference[]): TraceGroup[] {
  return TRACE_TYPES.map((type) => {
    const mine = refs.filter((r) => r.type === type).sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
    return { type, percent: pct(mine.reduce((s, r) => s + r.weight, 0)), refs: mine.map((r) => ({ ...r, percent: pct(r.weight) })) };
  }).filter((g) => g.refs.length > 0);
}

/** `preference:r-1` → `r-1`: the semantic rule a reference points at. */
export function ruleIdOf(ref: Pick<TraceReference, 'id'>): string | null {
  return ref.id.startsWith('preference:') ? ref.id.slice('preference:'.length) : null;
}
