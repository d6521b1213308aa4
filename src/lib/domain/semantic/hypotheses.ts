/**
 * The preference patterns distillation tests (seed 003 "模式提取"), each a question with two answers
 * (poles) read off the style features of texts (episodes/features.ts):
 *
 *   hypothesis       poles                  category    decided by
 *   sentence-length  short | long           pacing      mean sentence length, vs a reference (≤ 0.85× / ≥ 1.15×) or absolute (≤ 12 / ≥ 22 units)
 *   length           shorter | longer       structure   output / input length (< 0.9 / > 1.1); replacing skills only
 *   exclamation      avoid | welcome        style       any ! / ！
 *   person           first | third          structure   share of narration sentences saying 我/I (≥ 0.6 / ≤ 0.2)
 *   register         colloquial | formal    vocabulary  colloquial vs literary markers
 *   ornate           ornate | plain         style       ornament markers, vs a reference or absolute
 *
 * `negatives` says what a rejected text can tell: `both` — its pole is what the user did not want;
 * `marked` — only the marked pole counts (an output rejected *with* "!" may be blamed on it, one
 * without says nothing about "!"); `none` — rejection is no evidence (a third-person draft is rejected
 * for a hundred other reasons).
 */
import type { StyleFeatures } from '../episodes/features';

export const HYPOTHESES = ['sentence-length', 'length', 'exclamation', 'person', 'register', 'ornate'] as const;
export type HypothesisId = (typeof HYPOTHESES)[number];
export type RuleCategory = 'style' | 'structure' | 'character' | 'pacing' | 'vocabulary';

export interface Hypothesis {
  id: HypothesisId;
  category: RuleCategory;
  poles: readonly [string, string];
  negatives: 'both' | 'marked' | 'none';
  marked?: string;
  /** Needs the input as a reference (length); otherwise a reference is used when there is one. */
  needsReference?: boolean;
  /** Which pole `a` is on, compared with `ref` (another text) or, without one, on its own; null: neither. */
  side(a: StyleFeatures, ref: StyleFeatures | null): string | null;
}

const usable = (f: StyleFeatures) => f.units >= 4;

export const HYPOTHESIS: Record<HypothesisId, Hypothesis> = {
  'sentence-length': {
    id: 'sentence-length',
    category: 'pacing',
    poles: ['short', 'long'],
    negatives: 'both',
    side(a, ref) {
      if (!usable(a)) return null;
      if (ref && usable(ref) && ref.sentence > 0) {
        if (a.sentence <= ref.sentence * 0.85) return 'short';
        if (a.sentence >= ref.sentence * 1.15) return 'long';
        return null;
      }
      return a.sentence <= 12 ? 'short' : a.sentence >= 22 ? 'long' : null;
    },
  },
  length: {
    id: 'length',
    category: 'structure',
    poles: ['shorter', 'longer'],
    negatives: 'both',
    needsReference: true,
    side(a, ref) {
      if (!ref || ref.units === 0 || a.units === 0) return null;
      const ratio = a.units / ref.units;
      return ratio < 0.9 ? 'shorter' : ratio > 1.1 ? 'longer' : null;
    },
  },
  exclamation: {
    id: 'exclamation',
    category: 'style',
    poles: ['avoid', 'welcome'],
    negatives: 'marked',
    marked: 'welcome',
    side: (a) => (usable(a) ? (a.exclaim > 0 ? 'welcome' : 'avoid') : null),
  },
  person: {
    id: 'person',
    category: 'structure',
    poles: ['first', 'third'],
    negatives: 'none',
    side: (a) => (a.firstPerson === null ? null : a.firstPerson >= 0.6 ? 'first' : a.firstPerson <= 0.2 ? 'third' : null),
  },
  register: {
    id: 'register',
    category: 'vocabulary',
    poles: ['colloquial', 'formal'],
    negatives: 'both',
    side(a, ref) {
      if (!usable(a)) return null;
      if (ref && usable(ref)) {
        const dc = a.colloquial - ref.colloquial;
        const dl = a.literary - ref.literary;
        if (dc >= 1 && dc > dl) return 'colloquial';
        if (dl >= 1 && dl > dc) return 'formal';
        return null;
      }
      if (a.colloquial >= 2 && a.colloquial > 2 * a.literary) return 'colloquial';
      if (a.literary >= 1.5 && a.literary > a.colloquial) return 'formal';
      return null;
    },
  },
  ornate: {
    id: 'ornate',
    category: 'style',
    poles: ['ornate', 'plain'],
    negatives: 'both',
    side(a, ref) {
      if (!usable(a)) return null;
      if (ref && usable(ref)) {
        if (a.ornate >= ref.ornate * 1.3 + 1) return 'ornate';
        if (a.ornate <= ref.ornate * 0.7 - 1) return 'plain';
        return null;
      }
      return a.ornate >= 6 ? 'ornate' : a.ornate <= 2 ? 'plain' : null;
    },
  },
};

/** The other pole. */
export function opposite(h: Hypothesis, pole: string): string {
  return h.poles[0] === pole ? h.poles[1] : h.poles[0];
}

export function isHypothesisId(value: string): value is HypothesisId {
  return (HYPOTHESES as readonly string[]).includes(value);
}
