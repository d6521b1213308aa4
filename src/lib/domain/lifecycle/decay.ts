import { DAY_MS } from '../clock';

/**
 * 003 记忆衰减与生命周期管理 — the forgetting curve, exactly as the seed writes it (its Owner fixes the formula:
 * "Agent 不得私改衰减核心公式"; nothing here is tunable):
 *
 *   decay           = min(1.0, baseDecay × recallBoost × importanceBoost)
 *   baseDecay       = exp(−0.1 × ageInDays)
 *   recallBoost     = 1 + 0.2 × recallCount
 *   importanceBoost = 1 + 0.3 × importance
 *
 * Age counts from the last time the memory was recalled (or, never recalled, from when it was made): 003's
 * "被召回的记忆重新激活" has a recalled memory climb back to the active tier, which only an age that restarts at
 * the recall gives. Its 60-day example (ARCHITECTURE §10): e^−6 ≈ 0.0025, not the seed's 0.25 — the outcome (out
 * of recall, compressed at the next batch) holds either way.
 */
export const DECAY_RATE_PER_DAY = 0.1;
export const RECALL_BOOST = 0.2;
export const IMPORTANCE_BOOST = 0.3;

export interface DecayInput {
  createdAt: number;
  lastRecalledAt: number | null;
  recallCount: number;
  /** 0–1. */
  importance: number;
  /** Core settings and user-confirmed rules: "不受衰减影响". */
  exempt?: boolean;
}

export function decayScore(m: DecayInput, now: number): number {
  if (m.exempt) return 1;
  const since = Math.max(m.createdAt, m.lastRecalledAt ?? m.createdAt);
  const ageDays = Math.max(0, now - since) / DAY_MS;
  const baseDecay = Math.exp(-DECAY_RATE_PER_DAY * ageDays);
  const recallBoost = 1 + RECALL_BOOST * Math.max(0, m.recallCount);
  const importanceBoost = 1 + IMPORTANCE_BOOST * Math.min(1, Math.max(0, m.importance));
  return Math.min(1, baseDecay * recallBoost * importanceBoost);
}

/**
 * 003's four tiers: active 0.7–1.0 (recalled as usual), decaying 0.3–0.7 (recalled at lower priority; a recall
 * re-activates it), compress 0.1–0.3 (out of recall, compressed at the next batch), evict < 0.1 (deleted at the
 * next clean-up). A boundary belongs to the tier above it.
 */
export type DecayTier = 'active' | 'decaying' | 'compress' | 'evict';

export function decayTier(score: number): DecayTier {
  if (score >= 0.7) return 'active';
  if (score >= 0.3) return 'decaying';
  if (score >= 0.1) return 'compress';
  return 'evict';
}

/** What a tier does to recall: a multiplier on a memory's relevance (0: not recalled at all). */
export function recallWeight(tier: DecayTier, score: number): number {
  if (tier === 'active') return 1;
  if (tier === 'decaying') return score;
  return 0;
}

/**
 * A rule's decay, as the lifecycle pass stores it and as the context build reads it: a rule is never "recalled",
 * so its age runs from its last change (distillation reinforcing it, the user editing it) and its confidence is
 * the importance. Rules the user wrote or confirmed, and pinned ones, are exempt (003 免衰减).
 */
export function ruleDecayScore(r: { updatedAt: number; confidence: number; userConfirmed: boolean; source: 'user' | 'learned'; pinned: boolean }, now: number): number {
  const exempt = r.userConfirmed || r.source === 'user' || r.pinned;
  return decayScore({ createdAt: r.updatedAt, lastRecalledAt: null, recallCount: 0, importance: r.confidence, exempt }, now);
}
