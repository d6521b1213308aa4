/**
 * An episode's evidence, as votes per hypothesis (seed 003 "隐式反馈信号提取规则" read by distillation).
 * Four kinds of evidence, each weighted by the episode's signal (episodes/signals.ts):
 *
 *   choice     the chosen candidate vs each candidate passed over: its pole, split over the comparisons
 *              (if the choice was later undone or rewritten — valence < 0 — the vote goes to the other pole)
 *   edit       the user's own edit, chosen → kept: the pole the edit moved toward (medium weight, 0.5);
 *              this is how edit distance is read: a big rewrite is a weak negative for the output *and*
 *              a direction for the pattern
 *   outcome    the kept output (vs the input it replaced, for polish): its pole if the episode ended positive,
 *              the other pole if it ended negative (as far as the hypothesis lets a rejection speak)
 *   stated     what the user wrote (explicit feedback, a typed instruction the session repeated), read
 *              by the claims lexicon: its pole (explicit feedback 0.8; a session's instruction its
 *              accumulated weight)
 *   verdict    "判断有误" on a rule: the other pole of each pattern it names (high weight, 0.8)
 *
 * `negated` (003 "支撑该规则的情景记忆标记为负向"): a deleted rule's supporting episodes vote against its
 * pattern from then on — applied by the distiller per pattern, see distill.ts.
 */
import type { StyleFeatures } from '../episodes/features';
import type { SceneType } from '../episodes/scene-type';
import type { ImplicitSignal } from '../episodes/signals';
import { HYPOTHESES, HYPOTHESIS, opposite, type HypothesisId } from './hypotheses';

export interface EpisodeFeatures {
  input?: StyleFeatures;
  candidates: StyleFeatures[];
  /** The kept text, when it differs from the chosen candidate. */
  final?: StyleFeatures;
  /** Preferences the user stated in words (claims.ts), without the words. */
  stated?: { dimension: string; pole: string }[];
}

/** What distillation reads of an episode: numbers and ids, no text. */
export interface EpisodeEvidence {
  id: string;
  kind: 'skill-run' | 'session' | 'verdict';
  projectId: string | null;
  skillId: string;
  sceneType: SceneType;
  signal: ImplicitSignal;
  /** Signed weight −1..1 (signals.ts valenceOf). */
  valence: number;
  selectedIndex: number;
  /** The skill replaces its input (polish), so output length vs input length means something. */
  replaces: boolean;
  features: EpisodeFeatures;
  /** Patterns (`<group>.<hypothesis>`) with the pole this episode now counts against. */
  negated: { pattern: string; pole: string }[];
  /** How many uses a session episode stands for (scene-skill preference). */
  uses: number;
  createdAt: number;
}

export interface HypothesisVote {
  hypothesis: HypothesisId;
  pole: string;
  weight: number;
}

export const EDIT_WEIGHT = 0.5;
export const STATED_WEIGHT = 0.8;

export function episodeVotes(e: EpisodeEvidence): HypothesisVote[] {
  if (e.kind === 'verdict') return [];
  const out: HypothesisVote[] = [];
  const statedWeight = e.kind === 'session' ? Math.abs(e.valence) : STATED_WEIGHT;
  for (const c of e.features.stated ?? []) {
    if ((HYPOTHESES as readonly string[]).includes(c.dimension)) out.push({ hypothesis: c.dimension as HypothesisId, pole: c.pole, weight: statedWeight });
  }
  if (e.kind !== 'skill-run') return out;
  const { candidates, input, final } = e.features;
  const w = Math.abs(e.valence);
  const chosen = e.selectedIndex >= 0 ? candidates[e.selectedIndex] : undefined;
  for (const id of HYPOTHESES) {
    const h = HYPOTHESIS[id];
    if (id === 'length' && !e.replaces) continue;
    // The input is a reference only for a skill whose output takes its place (polish): a continuation is
    // judged on its own, not against the text it follows.
    const ref = e.replaces ? (input ?? null) : null;
    const push = (pole: string | null, weight: number) => {
      if (pole !== null && weight > 0) out.push({ hypothesis: id, pole, weight: Math.round(weight * 1000) / 1000 });
    };
    /** What a rejected text on `pole` says: the other pole, if this hypothesis lets a rejection speak. */
    const against = (pole: string | null): string | null => {
      if (pole === null || h.negatives === 'none') return null;
      if (h.negatives === 'marked' && pole !== h.marked) return null;
      return opposite(h, pole);
    };
    if (chosen) {
      const others = candidates.filter((_, i) => i !== e.selectedIndex);
      for (const other of others) {
        const pole = h.side(chosen, other);
        push(e.valence >= 0 ? pole : against(pole), w / others.length);
      }
      if (final) push(h.side(final, chosen), EDIT_WEIGHT);
      const pole = h.needsReference && !ref ? null : h.side(chosen, ref);
      if (e.valence > 0) push(pole, w);
      else if (e.valence < 0) push(against(pole), w);
    } else {
      for (const c of candidates) {
        const pole = h.needsReference && !ref ? null : h.side(c, ref);
        push(against(pole), w / Math.max(1, candidates.length));
      }
    }
  }
  return out;
}
