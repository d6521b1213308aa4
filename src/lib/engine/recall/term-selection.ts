import type { RetrievalConfig } from '../../domain/recall/config';
import type { WeightedTerm } from '../../domain/recall/coverage';
import { buildMatchQuery } from '../../domain/text/fts-query';
import type { TurnIndex } from './turn-index';

/** Keywords probed for their document frequency; a longer question keeps its first ones. */
export const MAX_PROBED_TERMS = 12;
/** On a small history no term counts as common below this many turns. */
const MIN_COMMON_TURNS = 8;

export interface SelectedTerms {
  /** The FTS5 expression (terms OR-ed), or null when nothing is left to match. */
  match: string | null;
  kept: string[];
  /** Dropped for being in more than `pruneShare` of all turns while rarer terms remain. */
  pruned: string[];
  /** The kept keywords with their rarity weight log(1 + turns / matching turns), for coverage. */
  weighted: WeightedTerm[];
  /** Lowest rowid ranked: > 0 when more rows match than `rankBudget` and only the newest are ranked. */
  from: number;
}

/**
 * Which of the question's keywords go into the bm25 search (issue 8 "stop words and weights"; issue 3 latency):
 *
 * - A keyword found in more than `pruneShare` of all turns ("feel", "good", 问题 in a long history), or in more
 *   than two rank budgets of turns, adds little but noise to bm25 and costs a read of its whole posting list;
 *   it is dropped while a rarer keyword remains.
 * - If the kept keywords still match more than `rankBudget` turns, only the newest `rankBudget` matches are
 *   ranked (a rowid range), so a question of common words costs the same at 100,000 turns as at 5,000.
 *
 * Counting is bounded too: each probe stops one past the common threshold.
 */
export function selectTerms(keywords: readonly string[], deps: { index: TurnIndex; config: Pick<RetrievalConfig, 'termPruning' | 'pruneShare' | 'rankBudget'> }): SelectedTerms {
  const { index, config } = deps;
  const distinct = [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()].slice(0, MAX_PROBED_TERMS);
  const terms = distinct.map((k) => ({ keyword: k, match: buildMatchQuery([k], { prefix: false }) })).filter((t) => t.match !== null);
  if (terms.length === 0) return { match: null, kept: [], pruned: [], weighted: [], from: 0 };

  const total = index.turnCountBound();
  // Common: in more than pruneShare of all turns — and, in a long history, in more turns than two rank budgets
  // (reading such a term's list costs about a millisecond at 100,000 turns, and it says little).
  const threshold = Math.max(MIN_COMMON_TURNS, Math.min(Math.ceil(config.pruneShare * total), 2 * config.rankBudget));
  // One term cannot be pruned; the rank window alone bounds its cost.
  const counted = terms.map((t) => ({ ...t, n: terms.length === 1 ? 1 : index.matchCount(t.match as string, threshold + 1) }));
  const found = counted.filter((t) => t.n > 0);
  const rare = found.filter((t) => t.n <= threshold);
  const keep = config.termPruning && rare.length > 0 ? rare : found;
  const kept = keep.map((t) => t.keyword);
  const pruned = found.filter((t) => !keep.includes(t)).map((t) => t.keyword);
  const match = buildMatchQuery(kept, { prefix: false });
  const matched = keep.reduce((sum, t) => sum + t.n, 0);
  const from = match && (terms.length === 1 || matched > config.rankBudget) ? (index.windowStart(match, config.rankBudget) ?? 0) : 0;
  const weighted = keep.map((t) => ({ keyword: t.keyword, weight: Math.log(1 + total / t.n) }));
  return { match, kept, pruned, weighted, from };
}
