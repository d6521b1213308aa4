/**
 * The lexical part of seed 002's context similarity, per turn:
 *
 *   bm25 per turn ──▶ lexical 0..1 ──▶ + neighbours' share (one and two turns away) ──▶ + its conversation's share
 *                 ──▶ (× speaker cue, × second stage: rank-turns.ts)
 *
 * Pure functions over ids; the engine supplies ranks and neighbours. Every intermediate value is kept for the
 * explain view.
 */

/**
 * bm25 of one turn from several queries over disjoint sets of terms, summed per turn (bm25 is a sum over a query's
 * terms, so a turn two queries found gets what one query over both sets would give it). FTS5: negative values.
 */
export function sumRanks<K>(parts: readonly ReadonlyMap<K, number>[]): Map<K, number> {
  const out = new Map<K, number>();
  for (const part of parts) for (const [id, r] of part) out.set(id, (out.get(id) ?? 0) + r);
  return out;
}

/** FTS5 bm25 ranks (negative, lower is better) → 0..1 relative to the best rank among them. */
export function lexicalScores<K>(ranks: ReadonlyMap<K, number>): Map<K, number> {
  let best = 0;
  for (const r of ranks.values()) if (Number.isFinite(r) && r < best) best = r;
  const out = new Map<K, number>();
  for (const [id, r] of ranks) {
    if (!Number.isFinite(r)) out.set(id, 0);
    else if (best < 0) out.set(id, r < 0 ? Math.min(1, r / best) : 0);
    // No usable rank at all (a tiny corpus: FTS5 clamps IDF to ~0): every match counts fully.
    else out.set(id, 1);
  }
  return out;
}

export interface Neighbours<K> {
  prev: K | null;
  next: K | null;
  /** Share of the previous / next turn's score this turn may borrow. */
  prevWeight: number;
  nextWeight: number;
  /** The turns two places away (contextWindow), and the share of the better one's score the turn borrows. */
  farPrev?: K | null;
  farNext?: K | null;
  farWeight?: number;
}

/**
 * A turn's own score plus the larger of its neighbours' scores times that neighbour's weight (plus, with a context
 * window, the better of the turns two away times farWeight), over (1 + the largest neighbour weight), so scores
 * stay in 0..1 for weights up to 1. A reply right after a matching question gains most (an answer rarely repeats
 * the question's words); turns that only neighbour a match are scored too.
 */
export function withNeighbours<K>(own: ReadonlyMap<K, number>, links: ReadonlyMap<K, Neighbours<K>>): Map<K, number> {
  const out = new Map<K, number>();
  let maxWeight = 0;
  for (const l of links.values()) maxWeight = Math.max(maxWeight, l.prevWeight, l.nextWeight);
  const ids = new Set<K>([...own.keys(), ...links.keys()]);
  for (const id of ids) {
    const link = links.get(id);
    const prev = link?.prev == null ? 0 : (own.get(link.prev) ?? 0) * link.prevWeight;
    const next = link?.next == null ? 0 : (own.get(link.next) ?? 0) * link.nextWeight;
    const farWeight = link?.farWeight ?? 0;
    const far = farWeight > 0 ? Math.max(link?.farPrev == null ? 0 : (own.get(link.farPrev) ?? 0), link?.farNext == null ? 0 : (own.get(link.farNext) ?? 0)) : 0;
    const score = ((own.get(id) ?? 0) + Math.max(prev, next) + far * farWeight) / (1 + maxWeight);
    if (score > 0) out.set(id, score);
  }
  return out;
}

/** Per conversation, the best of its turns' scores (sessionContext: what a turn's conversation is about). */
export function bestPerGroup<K>(scores: ReadonlyMap<K, number>, groupOf: (id: K) => string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, s] of scores) {
    const g = groupOf(id);
    if (g !== undefined && s > (out.get(g) ?? 0)) out.set(g, s);
  }
  return out;
}

/** 1-based ranks, best (highest score) first; ties share the better rank. */
export function ranksOf<K>(scores: ReadonlyMap<K, number>): Map<K, number> {
  const sorted = [...scores].sort((a, b) => b[1] - a[1]);
  const out = new Map<K, number>();
  let rank = 0;
  let last = Number.NaN;
  sorted.forEach(([id, s], i) => {
    if (s !== last) rank = i + 1;
    last = s;
    out.set(id, rank);
  });
  return out;
}

/**
 * Reciprocal-rank fusion (Cormack et al. 2009): Σ weight / (k + rank) over the rankings an id appears in. Used to
 * fuse the lexical ranking with the embedding ranking (issue 18) for turns, conversations, memories and episodes:
 * ranks, not scores, so bm25's and cosine's scales never need to agree.
 */
export function fuseRanks<K>(rankings: readonly { ranks: ReadonlyMap<K, number>; weight: number }[], k: number): Map<K, number> {
  const out = new Map<K, number>();
  for (const { ranks, weight } of rankings) {
    if (!(weight > 0)) continue;
    for (const [id, rank] of ranks) out.set(id, (out.get(id) ?? 0) + weight / (k + rank));
  }
  return out;
}

/**
 * Meaning-based recall (issue 18): a lexical score (memories: 001's keyword_score; episodes: their lexical score) and
 * the cosine similarity of each item's embedding to the query, fused by rank (`fuseRanks`) and scaled to the best, so
 * an item that says the same thing in other words ("周末去河边钓鱼" for "爷爷带我去钓鱼") is a candidate with a score of
 * its own. `parts.semantic` is the share of the fused score the embedding ranking gave it (the explain view). Episode
 * recall (issue 17) calls this with its own lexical scores and `SemanticService.lane`'s cosines.
 */
export function fuseWithMeaning<K>(
  keyword: ReadonlyMap<K, number>,
  cosines: ReadonlyMap<K, number>,
  opts: { weight: number; k: number },
): Map<K, { keywordScore: number; parts: { semantic?: number } }> {
  const keywordRanks = ranksOf(new Map([...keyword].filter(([, s]) => s > 0)));
  const semanticRanks = ranksOf(cosines);
  const fused = fuseRanks([{ ranks: keywordRanks, weight: 1 }, { ranks: semanticRanks, weight: opts.weight }], opts.k);
  let best = 0;
  for (const s of fused.values()) best = Math.max(best, s);
  const out = new Map<K, { keywordScore: number; parts: { semantic?: number } }>();
  for (const [id, score] of fused) {
    const rank = semanticRanks.get(id);
    out.set(id, { keywordScore: best > 0 ? score / best : 0, parts: rank === undefined ? {} : { semantic: opts.weight / (opts.k + rank) / (best || 1) } });
  }
  return out;
}
