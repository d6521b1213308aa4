/**
 * How a question's keywords are searched, from how many turns each one matches (issue 8 "stop words and
 * weights"; issue 3 latency). Pure: the engine counts the matches (bounded) and runs the plan.
 *
 *   rare    ≤ rankBudget matches         searched in full: a specific word is found however old the turn
 *   common  more matches                 searched among their newest rankBudget matches only (a rowid window)
 *   pruned  more than `threshold`        dropped while another term remains: it says little and costs most
 *
 * Either way a query ranks at most about rankBudget rows per lane: ranking (bm25 per row) is what costs.
 *
 * Rare and common terms go to separate FTS5 queries whose bm25 values are summed per turn (bm25 is a sum over the
 * query's terms, so a turn found by both gets the score one query would give it). Before the split, one window
 * over all terms let a moderately common word push an old turn with a rare word out of reach.
 *
 * In a history of a few thousand turns every term is rare: one query over all of them, no window, no pruning.
 */
import type { RetrievalConfig } from './config';

export interface TermCount {
  keyword: string;
  /** The FTS5 expression of this one keyword. */
  match: string;
  /** Matching turns: exact up to the probe's cap, else an estimate from how far back the cap reached. */
  turns: number;
}

export interface TermPlan<T extends TermCount = TermCount> {
  rare: T[];
  common: T[];
  pruned: T[];
}

type PlanConfig = Pick<RetrievalConfig, 'termPruning' | 'pruneShare' | 'rankBudget'>;

/** Terms with at most this many matches are searched in full. */
export function rareCap(config: Pick<RetrievalConfig, 'rankBudget'>): number {
  return config.rankBudget;
}

/**
 * Above this many matches a term is pruned while others remain: pruneShare of all turns, capped at four rank
 * budgets (such a term's posting list costs about a millisecond at 100,000 turns), never below the rare cap —
 * pruning is a cost control, and bm25's IDF already weighs a common word down (pruning by share alone in a
 * 600-turn history dropped "music" from "What is Vera's favourite style of music?").
 */
export function pruneThreshold(totalTurns: number, config: PlanConfig): number {
  return Math.max(rareCap(config), Math.min(Math.ceil(config.pruneShare * totalTurns), 4 * config.rankBudget));
}

/**
 * The number of matches from a probe that counted the newest `cap` matches and found the oldest of them at
 * rowid `lowest`: exact below the cap, else the cap scaled by the share of the history it covered.
 */
export function estimateMatches(counted: number, opts: { cap: number; lowest: number | null; newestId: number }): number {
  if (counted < opts.cap || opts.lowest === null || opts.newestId <= 0) return counted;
  const covered = Math.max(1, opts.newestId - opts.lowest + 1);
  return Math.max(counted, Math.round((counted * opts.newestId) / covered));
}

export function planTerms<T extends TermCount>(counts: readonly T[], opts: { totalTurns: number; config: PlanConfig }): TermPlan<T> {
  const found = counts.filter((t) => t.turns > 0);
  const cap = rareCap(opts.config);
  const threshold = pruneThreshold(opts.totalTurns, opts.config);
  const tooCommon = (t: T) => opts.config.termPruning && t.turns > threshold;
  const keep = found.some((t) => !tooCommon(t)) ? found.filter((t) => !tooCommon(t)) : found;
  return {
    rare: keep.filter((t) => t.turns <= cap),
    common: keep.filter((t) => t.turns > cap),
    pruned: found.filter((t) => !keep.includes(t)),
  };
}

/** Rarity weight of a term for coverage: log(1 + turns / matching turns). */
export function rarityWeight(turns: number, totalTurns: number): number {
  return Math.log(1 + Math.max(1, totalTurns) / Math.max(1, turns));
}
