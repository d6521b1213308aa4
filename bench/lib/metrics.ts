/**
 * Retrieval metrics as defined in /work/shared/bench/README.md ("Metrics"), so figures compare with the papers.
 *
 * A ranking is what a system showed, slot by slot: a unit id, or null for a slot that names no unit at this level
 * (a summary at turn level, a second hit in an already-listed session at session level). Nulls keep ranks honest:
 * a slot spent on something else is a slot the gold did not get.
 */
export type Ranking = readonly (string | null)[];

function topK(ranking: Ranking, k: number): Set<string> {
  const seen = new Set<string>();
  for (const unit of ranking.slice(0, k)) if (unit !== null) seen.add(unit);
  return seen;
}

/** |gold ∩ top-k| / |gold| (LoCoMo evidence recall, MADial memory recall). Gold must not be empty. */
export function recallAtK(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) throw new RangeError('recall needs at least one gold unit');
  const top = topK(ranking, k);
  let hit = 0;
  for (const g of gold) if (top.has(g)) hit++;
  return hit / gold.size;
}

/** 1 if every gold unit is in the top k (LongMemEval recall_all@k). */
export function recallAllAtK(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return recallAtK(ranking, gold, k) === 1 ? 1 : 0;
}

/** 1 if any gold unit is in the top k (LongMemEval recall_any@k). */
export function recallAnyAtK(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return recallAtK(ranking, gold, k) > 0 ? 1 : 0;
}

/**
 * NDCG@k with binary relevance: DCG = Σ rel_i / log2(i + 1) over ranks i = 1..k (a unit counts once, at its first
 * rank); IDCG puts min(|gold|, k) relevant units first.
 */
export function ndcgAtK(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) throw new RangeError('NDCG needs at least one gold unit');
  const counted = new Set<string>();
  let dcg = 0;
  ranking.slice(0, k).forEach((unit, i) => {
    if (unit === null || !gold.has(unit) || counted.has(unit)) return;
    counted.add(unit);
    dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(gold.size, k); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** A unit listed again is an empty slot (five turns from two sessions show two sessions, in five slots). */
export function dedupeSlots(ranking: Ranking): (string | null)[] {
  const seen = new Set<string>();
  return ranking.map((unit) => {
    if (unit === null || seen.has(unit)) return null;
    seen.add(unit);
    return unit;
  });
}

/** The first k distinct units, empty slots dropped ("ask for more, show the first k"). */
export function firstDistinct(ranking: Ranking, k: number): string[] {
  const out: string[] = [];
  for (const unit of ranking) {
    if (unit === null || out.includes(unit)) continue;
    out.push(unit);
    if (out.length === k) break;
  }
  return out;
}

/** Mean of per-item scores per metric key (items missing a key are left out of that key's mean). */
export function averageScores(items: readonly Record<string, number>[]): Record<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      const s = sums.get(key) ?? { sum: 0, n: 0 };
      s.sum += value;
      s.n++;
      sums.set(key, s);
    }
  }
  return Object.fromEntries([...sums].map(([key, s]) => [key, s.sum / s.n]));
}
