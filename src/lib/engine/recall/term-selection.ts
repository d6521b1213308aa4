import type { RetrievalConfig } from '../../domain/recall/config';
import type { WeightedTerm } from '../../domain/recall/coverage';
import { estimateMatches, planTerms, rareCap, rarityWeight, type TermCount } from '../../domain/recall/term-plan';
import { buildMatchQuery } from '../../domain/text/fts-query';
import type { TurnIndex } from './turn-index';

/** Keywords probed for their number of matches; a longer question keeps its first ones. */
export const MAX_PROBED_TERMS = 12;
/**
 * A probe counts at most this many of a keyword's newest matches; beyond it the number is estimated from how far
 * back they reach (term-plan.ts). Exact counts matter only below the cap: above it a term's lane and weight depend
 * on its order of magnitude, and a probe of 128 rowids costs a tenth of one of 1,000.
 */
export const PROBE_CAP = 128;

/** One FTS5 query of the plan: its expression and the lowest rowid it ranks (> 0: a window of the newest). */
export interface SearchLane {
  match: string;
  from: number;
}

export interface SelectedTerms {
  /** The rare terms' query (in full) and the common terms' query (windowed at scale); bm25 is summed over them. */
  lanes: SearchLane[];
  kept: string[];
  /** Dropped as too common while rarer terms remain. */
  pruned: string[];
  /** The kept keywords with their rarity weight, for coverage. */
  weighted: WeightedTerm[];
  /** True when a lane ranks only the newest matches. */
  windowed: boolean;
}

/**
 * Which of the question's keywords go into the bm25 search and how (domain/recall/term-plan.ts). Each keyword's
 * matches are counted newest first up to PROBE_CAP; beyond it the count is estimated from how far back they reach.
 */
export function selectTerms(keywords: readonly string[], deps: { index: TurnIndex; config: Pick<RetrievalConfig, 'termPruning' | 'pruneShare' | 'rankBudget'> }): SelectedTerms {
  const { index, config } = deps;
  const distinct = [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()].slice(0, MAX_PROBED_TERMS);
  const terms = distinct.flatMap((keyword) => {
    const match = buildMatchQuery([keyword], { prefix: false });
    return match ? [{ keyword, match }] : [];
  });
  if (terms.length === 0) return { lanes: [], kept: [], pruned: [], weighted: [], windowed: false };

  const newestId = index.turnCountBound();
  const cap = Math.min(PROBE_CAP, rareCap(config) + 1);
  const counts: TermCount[] = terms.map((t) => {
    const probe = index.newestMatches(t.match, cap);
    return { ...t, turns: estimateMatches(probe.count, { cap, lowest: probe.lowest, newestId }) };
  });
  const plan = planTerms(counts, { totalTurns: newestId, config });
  const lanes: SearchLane[] = [];
  const rare = buildMatchQuery(plan.rare.map((t) => t.keyword), { prefix: false });
  if (rare) lanes.push({ match: rare, from: 0 });
  const common = buildMatchQuery(plan.common.map((t) => t.keyword), { prefix: false });
  if (common) lanes.push({ match: common, from: index.windowStart(common, config.rankBudget) ?? 0 });
  const kept = counts.filter((t) => plan.rare.includes(t) || plan.common.includes(t));
  return {
    lanes,
    kept: kept.map((t) => t.keyword),
    pruned: plan.pruned.map((t) => t.keyword),
    weighted: kept.map((t) => ({ keyword: t.keyword, weight: rarityWeight(t.turns, newestId) })),
    windowed: lanes.some((l) => l.from > 0),
  };
}
