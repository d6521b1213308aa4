/**
 * Turning several rankings of the same turns into one context-similarity value (seed 002's third term):
 *
 *   bm25 per turn ──▶ lexical 0..1 ──▶ × speaker cue ──▶ + neighbours' share ──▶ turn ranking ─┐
 *                                                               └──▶ best turns per session ──▶ session ranking ─┤
 *                                                                                       reciprocal rank fusion ◀┘
 *
 * Pure functions over ids; the engine supplies ranks, neighbours and sessions. Every intermediate value is kept
 * for the explain view.
 */

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
}

/**
 * A turn's own score plus the larger of its neighbours' scores times that neighbour's weight, over (1 + the
 * largest weight), so scores stay in 0..1. A reply right after a matching question gains most (an answer rarely
 * repeats the question's words); turns that only neighbour a match are scored too.
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
    const score = ((own.get(id) ?? 0) + Math.max(prev, next)) / (1 + maxWeight);
    if (score > 0) out.set(id, score);
  }
  return out;
}

/** A session's relevance: the sum of its `top` best turn scores (one strong turn, or several good ones). */
export function sessionScores<K, S>(scores: ReadonlyMap<K, number>, sessionOf: (id: K) => S | undefined, top = 3): Map<S, number> {
  const per = new Map<S, number[]>();
  for (const [id, s] of scores) {
    const session = sessionOf(id);
    if (session === undefined) continue;
    const list = per.get(session) ?? [];
    list.push(s);
    per.set(session, list);
  }
  const out = new Map<S, number>();
  for (const [session, list] of per) {
    list.sort((a, b) => b - a);
    out.set(session, list.slice(0, top).reduce((sum, s) => sum + s, 0));
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

export interface FusionPart {
  /** 1-based rank in this ranking; undefined when the ranking does not list the item. */
  rank: number | undefined;
  weight: number;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): Σ weight / (k + rank), divided by what rank 1 in every
 * ranking would give, so the result is 0..1 and 1 means "first everywhere".
 */
export function fuseRanks(parts: readonly FusionPart[], k: number): number {
  let sum = 0;
  let max = 0;
  for (const p of parts) {
    max += p.weight / (k + 1);
    if (p.rank !== undefined) sum += p.weight / (k + p.rank);
  }
  return max > 0 ? sum / max : 0;
}
