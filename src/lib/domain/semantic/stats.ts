/**
 * The statistical test behind a learned rule's confidence (seed 003 "模式提取（统计显著的偏好模式）").
 *
 * Each episode casts weighted votes for one of a hypothesis' two poles (votes.ts; weights from 003's
 * signal table). For the majority pole with weighted share p̂ of the votes, and the Kish effective sample
 * size n = (Σw)² / Σw² (equal weights: n = the number of votes), the confidence is the lower bound of the
 * one-sided 95 % Wilson score interval:
 *
 *   confidence = (p̂ + z²/2n − z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n),  z = 1.645
 *
 * A pattern is significant — a rule is proposed — when it has at least MIN_VOTES votes, an effective
 * sample of at least MIN_EFFECTIVE and a confidence of at least MIN_CONFIDENCE. A confidence ≥ 0.6 means:
 * with 95 % confidence more than 60 % of the evidence points that way, so "no preference" (p = 0.5) is
 * rejected at α = 0.05 with room to spare. 35 of 35 equal votes give 0.93; 35 of 40 give 0.77.
 */
export const Z = 1.645;
export const MIN_VOTES = 5;
export const MIN_EFFECTIVE = 3;
export const MIN_CONFIDENCE = 0.6;

/** Lower bound of the Wilson score interval for a share `p` over an (effective) sample of `n`. */
export function wilsonLower(p: number, n: number, z = Z): number {
  if (n <= 0) return 0;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

export interface Vote {
  pole: string;
  weight: number;
  episodeId: string;
}

export interface Tally {
  /** The majority pole, or null without votes. */
  pole: string | null;
  /** Weighted votes for and against it. */
  forWeight: number;
  againstWeight: number;
  votes: number;
  effective: number;
  confidence: number;
  significant: boolean;
  /** Episodes that voted for / against the majority pole (each once, in the order given). */
  supporting: string[];
  contradicting: string[];
}

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

/** Tallies one hypothesis' votes between two poles (a vote for any other pole counts against). */
export function tally(votes: readonly Vote[]): Tally {
  const byPole = new Map<string, number>();
  for (const v of votes) if (v.weight > 0) byPole.set(v.pole, (byPole.get(v.pole) ?? 0) + v.weight);
  const ranked = [...byPole.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const pole = ranked[0]?.[0] ?? null;
  const used = votes.filter((v) => v.weight > 0);
  const sum = used.reduce((s, v) => s + v.weight, 0);
  const sumSq = used.reduce((s, v) => s + v.weight * v.weight, 0);
  const forWeight = pole === null ? 0 : (byPole.get(pole) ?? 0);
  const effective = sumSq === 0 ? 0 : (sum * sum) / sumSq;
  const confidence = sum === 0 ? 0 : wilsonLower(forWeight / sum, effective);
  const supporting = [...new Set(used.filter((v) => v.pole === pole).map((v) => v.episodeId))];
  const contradicting = [...new Set(used.filter((v) => v.pole !== pole).map((v) => v.episodeId))];
  return {
    pole,
    forWeight: round(forWeight),
    againstWeight: round(sum - forWeight),
    votes: used.length,
    effective: round(effective, 2),
    confidence: Math.round(confidence * 100) / 100,
    significant: used.length >= MIN_VOTES && effective >= MIN_EFFECTIVE && confidence >= MIN_CONFIDENCE,
    supporting,
    contradicting,
  };
}
