import type { RetrievalConfig } from './config';
import type { WeightedTerm } from './coverage';
import { estimateMatches, planTerms, rarityWeight, type TermCount } from './term-plan';
import { buildMatchQuery } from '../text/fts-query';
import { verbForms } from '../text/irregular-verbs';
import type { LaneQuery, TurnSource } from './turn-source';

/** One FTS5 query of the plan. */
export type SearchLane = LaneQuery;

export interface SelectedTerms {
  /** The rare terms' query (in full) and the common terms' query (windowed at scale); bm25 is summed over them. */
  lanes: SearchLane[];
  kept: string[];
  /** The kept keywords with their rarity weight and other forms, for coverage. */
  weighted: WeightedTerm[];
  /** True when a lane ranks only the newest matches. */
  windowed: boolean;
}

type Probed = TermCount & { forms: string[] };

/**
 * Which of the question's keywords go into the bm25 search and how (domain/recall/term-plan.ts). Each keyword's
 * matches are counted newest first up to probeCap; beyond it the count is estimated from how far back they reach.
 * An irregular verb is searched in all its forms (verbForms).
 */
export function selectTerms(
  keywords: readonly string[],
  deps: { index: TurnSource; config: Pick<RetrievalConfig, 'rankBudget' | 'verbForms' | 'probedTerms' | 'probeCap'> },
): SelectedTerms {
  const { index, config } = deps;
  const distinct = [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()].slice(0, config.probedTerms);
  const terms = distinct.flatMap((keyword) => {
    const forms = config.verbForms ? verbForms(keyword) : [];
    const match = buildMatchQuery([keyword, ...forms], { prefix: false });
    return match ? [{ keyword, match, forms }] : [];
  });
  if (terms.length === 0) return { lanes: [], kept: [], weighted: [], windowed: false };

  const newestId = index.turnCountBound();
  const cap = Math.min(config.probeCap, config.rankBudget + 1);
  const counts: Probed[] = terms.map((t) => {
    const probe = index.newestMatches(t.match, cap);
    return { ...t, turns: estimateMatches(probe.count, { cap, lowest: probe.lowest, newestId }) };
  });
  const plan = planTerms(counts, config);
  // The terms' own expressions OR-ed: one bm25 over them (a verb's forms are phrases of the same term).
  const joined = (ts: readonly Probed[]) => (ts.length ? ts.map((t) => t.match).join(' OR ') : null);
  const lanes: SearchLane[] = [];
  const rare = joined(plan.rare);
  if (rare) lanes.push({ match: rare, from: 0 });
  const common = joined(plan.common);
  if (common) lanes.push({ match: common, from: index.windowStart(common, config.rankBudget) ?? 0 });
  const kept = [...plan.rare, ...plan.common].sort((a, b) => counts.indexOf(a) - counts.indexOf(b));
  return {
    lanes,
    kept: kept.map((t) => t.keyword),
    weighted: kept.map((t) => ({ keyword: t.keyword, weight: rarityWeight(t.turns, newestId), forms: t.forms })),
    windowed: lanes.some((l) => l.from > 0),
  };
}
