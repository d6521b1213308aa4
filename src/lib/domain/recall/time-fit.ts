/**
 * The recency term of seed 002's formula (REQ-LTM-005 "recency × 0.3 — 时间衰减"), made time-aware (issue 8):
 *
 *   the question names a time ("last Saturday", "去年圣诞节")  → temporal fit to that range      basis 'time-range'
 *   the question asks for the present ("currently", "最近")   → decay from the newest candidate  basis 'recent'
 *                                                             above a floor (a tie-breaker)
 *   neither                                                   → 1 for every turn                 basis 'timeless'
 *   time-awareness switched off                              → decay from now (002 as written)  basis 'age'
 *
 * Why not always decay from now: with weight 0.3 against context similarity's 0.3, a wall-clock decay lets the
 * newest turns win whenever the question names no symbol — "What did Priya study?" is as much about May as
 * about December. A timeless question therefore gives every turn the same recency, and ties go to the newer turn.
 * A "currently" question still needs the turns on its topic first: newness only orders them (recentFloor; a plain
 * 30-day decay put unrelated newer turns above the older statement of the same fact, docs/design/06-retrieval.md).
 */
import type { TimeRange } from '../text/time-calendar';
import { DAY_MS } from '../clock';
import { RECALL_RECENCY_HALF_LIFE_DAYS } from './score';

export type RecencyBasis = 'time-range' | 'recent' | 'timeless' | 'age';

/**
 * 1 inside any of the ranges; outside, halves every range-length (at least a day) of distance. Turns after a
 * range decay half as fast as turns before it: people talk about an event after it happened more than before.
 */
export function temporalFit(at: number, ranges: readonly TimeRange[]): number {
  let best = 0;
  for (const r of ranges) {
    if (at >= r.start && at < r.end) return 1;
    const scale = Math.max(r.end - r.start, DAY_MS);
    const fit = at < r.start ? Math.pow(0.5, (r.start - at) / scale) : Math.pow(0.5, (at - r.end) / (2 * scale));
    best = Math.max(best, fit);
  }
  return best;
}

export function decay(age: number, halfLifeDays = RECALL_RECENCY_HALF_LIFE_DAYS): number {
  return Math.pow(0.5, Math.max(0, age) / (halfLifeDays * DAY_MS));
}

export interface RecencyContext {
  now: number;
  ranges: readonly TimeRange[];
  recentCue: boolean;
  timeAware: boolean;
  /** The newest candidate's time (for 'recent'). */
  newest: number;
  /** 'recent': the least recency a turn gets (1 − floor is the most newness can add; 0 = 002's plain decay). */
  recentFloor?: number;
}

export function recencyBasis(ctx: Omit<RecencyContext, 'now' | 'newest'>): RecencyBasis {
  if (!ctx.timeAware) return 'age';
  if (ctx.ranges.length > 0) return 'time-range';
  return ctx.recentCue ? 'recent' : 'timeless';
}

const floor = (ctx: RecencyContext) => Math.min(1, Math.max(0, ctx.recentFloor ?? 0));

export function recencyTerm(createdAt: number, ctx: RecencyContext): number {
  switch (recencyBasis(ctx)) {
    case 'age':
      return decay(ctx.now - createdAt);
    case 'time-range':
      return temporalFit(createdAt, ctx.ranges);
    case 'recent':
      return floor(ctx) + (1 - floor(ctx)) * decay(ctx.newest - createdAt);
    case 'timeless':
      return 1;
  }
}
