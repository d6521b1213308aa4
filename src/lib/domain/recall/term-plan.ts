/**
 * How a question's keywords are searched, from how many turns each one matches (issue 8 "stop words and weights";
 * issue 3 latency). Pure: the engine counts the matches (bounded) and runs the plan.
 *
 *   rare    ≤ rankBudget matches         searched in full: a specific word is found however old the turn
 *   common  more matches                 searched among their newest rankBudget matches only (a rowid window)
 *
 * Either way a query ranks at most about rankBudget rows per lane: ranking (bm25 per row) is what costs.
 *
 * Rare and common terms go to separate FTS5 queries whose bm25 values are summed per turn (bm25 is a sum over the
 * query's terms, so a turn found by both gets the score one query would give it). Before the split, one window
 * over all terms let a moderately common word push an old turn with a rare word out of reach.
 *
 * In a history of a few thousand turns every term is rare: one query over all of them, no window.
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

/** Terms no turn holds are left out; terms with at most rankBudget matches are rare, the rest common. */
export function planTerms<T extends TermCount>(counts: readonly T[], config: Pick<RetrievalConfig, 'rankBudget'>): TermPlan<T> {
  const found = counts.filter((t) => t.turns > 0);
  return { rare: found.filter((t) => t.turns <= config.rankBudget), common: found.filter((t) => t.turns > config.rankBudget) };
}

/** Rarity weight of a term for coverage: log(1 + turns / matching turns). */
export function rarityWeight(turns: number, totalTurns: number): number {
  return Math.log(1 + Math.max(1, totalTurns) / Math.max(1, turns));
}
