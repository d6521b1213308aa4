import { averageScores } from '../lib/metrics';

/**
 * One slot of a result list, at every level the data set scores: `unit` is the turn (or memory) it names, null
 * for a slot that names none (a summary at turn level); `session` is the conversation the slot belongs to (a summary
 * counts for its session).
 */
export interface Slot {
  unit: string | null;
  session?: string | null;
}

/**
 * What a system showed for one query: `byK` the list it gave when asked for exactly k results (what a person sees),
 * `deep` the list when asked for 50. Pure rankers (the baselines) give prefixes of one list.
 */
export interface Shown {
  byK: ReadonlyMap<number, readonly Slot[]>;
  deep: readonly Slot[];
  /** The product's conversation ranking (recall.search `conversations`) per k, as conversation ids (absent: baselines). */
  conversationsByK?: ReadonlyMap<number, readonly string[]>;
}

export const DEEP_LIMIT = 50;

export function prefixes(deep: readonly Slot[], ks: readonly number[]): Shown {
  return { byK: new Map(ks.map((k) => [k, deep.slice(0, k)])), deep };
}

export function shownAt(shown: Shown, k: number): readonly Slot[] {
  const list = shown.byK.get(k);
  if (!list) throw new Error(`no result list for k=${k}`);
  return list;
}

/** Per query: the category it is reported under and each system's scores under each view. */
export interface ItemScores {
  category: string;
  /**
   * The conversation the query was asked over — the unit the ablation's split-half check keeps whole, since the
   * questions of one conversation are correlated (LoCoMo: the sample; LongMemEval: the question, whose haystack is its
   * own; MADial: the user, whose memories all their dialogues share).
   */
  group: string;
  /** system name ('engram' or a baseline) → view ('shown' | 'top50') → metric → score */
  systems: Record<string, Record<string, Record<string, number>>>;
}

export interface Aggregate {
  n: number;
  metrics: Record<string, number>;
  per_category: Record<string, Record<string, number>>;
  baselines: Record<string, Record<string, number>>;
  baselines_per_category: Record<string, Record<string, Record<string, number>>>;
  /** Labelled alternative: ask for 50, drop what names no unit (summaries) and repeats, keep the first k. */
  top50_first_k: { engram: Record<string, number>; baselines: Record<string, Record<string, number>> };
}

const view = (items: readonly ItemScores[], system: string, v: string) => items.map((i) => i.systems[system]?.[v] ?? {});

function byCategory(items: readonly ItemScores[], system: string): Record<string, Record<string, number>> {
  const cats = [...new Set(items.map((i) => i.category))].sort();
  return Object.fromEntries(
    cats.map((c) => {
      const mine = items.filter((i) => i.category === c);
      return [c, { n: mine.length, ...averageScores(view(mine, system, 'shown')) }];
    }),
  );
}

export function aggregate(items: readonly ItemScores[], baselineNames: readonly string[]): Aggregate {
  return {
    n: items.length,
    metrics: averageScores(view(items, 'engram', 'shown')),
    per_category: byCategory(items, 'engram'),
    baselines: Object.fromEntries(baselineNames.map((b) => [b, averageScores(view(items, b, 'shown'))])),
    baselines_per_category: Object.fromEntries(baselineNames.map((b) => [b, byCategory(items, b)])),
    top50_first_k: {
      engram: averageScores(view(items, 'engram', 'top50')),
      baselines: Object.fromEntries(baselineNames.map((b) => [b, averageScores(view(items, b, 'top50'))])),
    },
  };
}
