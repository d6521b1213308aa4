import type { RetrievalConfig } from '../../domain/recall/config';
import type { WeightedTerm } from '../../domain/recall/coverage';
import { estimateMatches, planTerms, pruneThreshold, rareCap, rarityWeight, type TermCount } from '../../domain/recall/term-plan';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { verbForms } from '../../domain/text/irregular-verbs';
import { isFrameWord } from '../../domain/recall/frame-words';
import { kindTerms, type CategoryExpansion } from '../../domain/recall/categories';
import type { TurnIndex } from './turn-index';

/** Keywords probed for their number of matches; a longer question keeps its first ones. */
export const MAX_PROBED_TERMS = 12;
/**
 * A probe counts at most this many of a keyword's newest matches; beyond it the number is estimated from how far
 * back they reach (term-plan.ts). Exact counts matter only below the cap: above it a term's lane and weight depend
 * on its order of magnitude, and a probe of 128 rowids costs a tenth of one of 1,000.
 */
export const PROBE_CAP = 128;

/** One FTS5 query of the plan: its expression, the lowest rowid it ranks (> 0: a window of the newest), and the factor its bm25 counts with. */
export interface SearchLane {
  match: string;
  from: number;
  weight: number;
}

export interface SelectedTerms {
  /**
   * The rare terms' query (in full) and the common terms' query (windowed at scale), each once for the topic words
   * and once for request-frame words (at frameWeight); bm25 × weight is summed over them.
   */
  lanes: SearchLane[];
  kept: string[];
  /** Dropped as too common while rarer terms remain. */
  pruned: string[];
  /** The kept keywords with their rarity weight (× frameWeight for a frame word) and other forms, for coverage. */
  weighted: WeightedTerm[];
  /** True when a lane ranks only the newest matches. */
  windowed: boolean;
  /** The kinds searched for the question's categories (hyponyms), in their own lane at hyponymWeight. */
  kinds: string[];
}

type Probed = TermCount & { forms: string[]; weight: number };

/**
 * Which of the question's keywords go into the bm25 search and how (domain/recall/term-plan.ts). Each keyword's
 * matches are counted newest first up to PROBE_CAP; beyond it the count is estimated from how far back they reach.
 * An irregular verb is searched in all its forms (verbForms); a request-frame word ("tips", "recommend", frameWords)
 * in a lane of its own whose bm25 counts frameWeight: bm25 is a sum over terms, so scaling a lane scales exactly its
 * terms' share of every turn's score.
 */
export function selectTerms(
  keywords: readonly string[],
  deps: {
    index: TurnIndex;
    config: Pick<RetrievalConfig, 'termPruning' | 'pruneShare' | 'rankBudget' | 'verbForms' | 'frameWords' | 'frameWeight' | 'hyponymWeight'>;
    /** The question's categories with their kinds (categories.ts); none when the technique is off. */
    categories?: readonly CategoryExpansion[];
  },
): SelectedTerms {
  const { index, config } = deps;
  const distinct = [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()].slice(0, MAX_PROBED_TERMS);
  const terms = distinct.flatMap((keyword) => {
    const forms = config.verbForms ? verbForms(keyword) : [];
    const match = buildMatchQuery([keyword, ...forms], { prefix: false });
    const weight = config.frameWords && isFrameWord(keyword) ? config.frameWeight : 1;
    return match ? [{ keyword, match, forms, weight }] : [];
  });
  // The kinds of the question's categories (hyponyms), planned as one term: ranked in full when rare, among their
  // newest matches when common, not searched when too common (kinds that common say nothing and cost most).
  const kinds = kindTerms(deps.categories ?? [], distinct);
  const kindMatch = kinds.length ? buildMatchQuery(kinds, { prefix: false }) : null;
  const kindLanes = (newestId: number): SearchLane[] => {
    if (!kindMatch) return [];
    const cap = Math.min(PROBE_CAP, rareCap(config) + 1);
    const probe = index.newestMatches(kindMatch, cap);
    const turns = estimateMatches(probe.count, { cap, lowest: probe.lowest, newestId });
    if (turns === 0 || (config.termPruning && turns > pruneThreshold(newestId, config))) return [];
    return [{ match: kindMatch, from: turns > rareCap(config) ? (index.windowStart(kindMatch, config.rankBudget) ?? 0) : 0, weight: config.hyponymWeight }];
  };
  if (terms.length === 0) {
    const lanes = kindLanes(index.turnCountBound());
    return { lanes, kept: [], pruned: [], weighted: [], windowed: lanes.some((l) => l.from > 0), kinds: lanes.length ? kinds : [] };
  }

  const newestId = index.turnCountBound();
  const cap = Math.min(PROBE_CAP, rareCap(config) + 1);
  const counts: Probed[] = terms.map((t) => {
    const probe = index.newestMatches(t.match, cap);
    return { ...t, turns: estimateMatches(probe.count, { cap, lowest: probe.lowest, newestId }) };
  });
  const plan = planTerms(counts, { totalTurns: newestId, config });
  const lanes: SearchLane[] = [];
  const weights = [...new Set(counts.map((t) => t.weight))];
  for (const weight of weights) {
    const of = (ts: readonly Probed[]) => ts.filter((t) => t.weight === weight);
    // The terms' own expressions OR-ed: one bm25 over them (a verb's forms are phrases of the same term).
    const joined = (ts: readonly Probed[]) => (ts.length ? ts.map((t) => t.match).join(' OR ') : null);
    const rare = joined(of(plan.rare));
    if (rare) lanes.push({ match: rare, from: 0, weight });
    const common = joined(of(plan.common));
    if (common) lanes.push({ match: common, from: index.windowStart(common, config.rankBudget) ?? 0, weight });
  }
  const kindLane = kindLanes(newestId);
  lanes.push(...kindLane);
  const kept = counts.filter((t) => plan.rare.includes(t) || plan.common.includes(t));
  return {
    lanes,
    kept: kept.map((t) => t.keyword),
    pruned: plan.pruned.map((t) => t.keyword),
    weighted: kept.map((t) => ({ keyword: t.keyword, weight: rarityWeight(t.turns, newestId) * t.weight, forms: t.forms })),
    windowed: lanes.some((l) => l.from > 0),
    kinds: kindLane.length ? kinds : [],
  };
}
