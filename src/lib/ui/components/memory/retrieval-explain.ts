import type { ScoreExplanation, ScoreNote } from '../../../domain/memory/score';
import { MEMORY_SCORE_WEIGHTS as W } from '../../../domain/memory/weights';

/**
 * The "why" view of memory retrieval: every term of seed 001's relevance score
 *   base  = keyword × 0.4 + category × 0.2 + recency × 0.15 + frequency × 0.1 + confidence × 0.15
 *   score = base × topic (1.3 when the memory relates to the current topic)
 * with the ×1.5 preference boost shown where it acts (on the category term, domain/memory/weights.ts).
 */
export type TermName = keyof ScoreExplanation['terms'];

export const TERM_ORDER: readonly TermName[] = ['keyword', 'category', 'recency', 'frequency', 'confidence'];

export interface TermRow {
  term: TermName;
  /** The factor in 0..1 before weighting. */
  value: number;
  weight: number;
  contribution: number;
}

export function termRows(score: Pick<ScoreExplanation, 'terms' | 'weighted'>): TermRow[] {
  return TERM_ORDER.map((term) => ({ term, value: score.terms[term], weight: W[term], contribution: score.weighted[term] }));
}

export interface MultiplierRow {
  name: 'preference' | 'topic';
  /** The multiplier this memory got (1 when it did not apply). */
  value: number;
  /** The seed's multiplier when it applies: ×1.5, ×1.3. */
  boost: number;
  applied: boolean;
}

export function multiplierRows(score: Pick<ScoreExplanation, 'multipliers'>): MultiplierRow[] {
  return [
    { name: 'preference', value: score.multipliers.preference, boost: W.preferenceBoost, applied: score.multipliers.preference !== 1 },
    { name: 'topic', value: score.multipliers.topic, boost: W.topicBoost, applied: score.multipliers.topic !== 1 },
  ];
}

/** The base score (Σ weighted terms), before the topic multiplier. */
export function baseScore(score: Pick<ScoreExplanation, 'weighted'>): number {
  return TERM_ORDER.reduce((sum, term) => sum + score.weighted[term], 0);
}

/** Notes the boost rows already say are not repeated underneath. */
export function extraNotes(notes: readonly ScoreNote[]): ScoreNote[] {
  return notes.filter((n) => n !== 'preference-boost' && n !== 'topic-boost');
}

/** The weights, for the formula line under the table. */
export const FORMULA_VARS = {
  keyword: W.keyword,
  category: W.category,
  recency: W.recency,
  frequency: W.frequency,
  confidence: W.confidence,
  preference: W.preferenceBoost,
  topic: W.topicBoost,
} as const;

/** Score notes (i18n-free codes from the domain) → their message key. */
export const NOTE_KEYS = {
  'preference-boost': 'preferenceBoost',
  'topic-boost': 'topicBoost',
  'recency-from-created-at': 'recencyFromCreatedAt',
  'future-timestamp': 'futureTimestamp',
  'never-accessed': 'neverAccessed',
  'no-keyword-match': 'noKeywordMatch',
} as const satisfies Record<ScoreNote, string>;

export type KeywordView = keyof NonNullable<ScoreExplanation['keywordParts']>;

const VIEW_ORDER: readonly KeywordView[] = ['message', 'dialogue', 'semantic'];

/**
 * Where keyword_score came from (issue 8): each lexical view's weighted share — the message, the user's earlier
 * turns, the conversation's mood — before the sum was scaled so the best memory scores 1.
 */
export function keywordPartRows(score: Pick<ScoreExplanation, 'keywordParts'>): { view: KeywordView; value: number }[] {
  const parts = score.keywordParts ?? {};
  return VIEW_ORDER.filter((v) => (parts[v] ?? 0) > 0).map((view) => ({ view, value: parts[view] ?? 0 }));
}

/**
 * Why the topic boost applied: the topic words the memory holds, each from the current topic or from the chat's
 * first message (memoryOpenerTopic), the current topic's first. Empty when the boost did not apply.
 */
export function topicWordRows(score: Pick<ScoreExplanation, 'topicWords' | 'multipliers'>): { word: string; source: 'topic' | 'opener' }[] {
  if (score.multipliers.topic === 1) return [];
  const words = score.topicWords ?? [];
  return [...words.filter((w) => !w.opener), ...words.filter((w) => w.opener)].map((w) => ({ word: w.word, source: w.opener ? 'opener' : 'topic' }));
}
