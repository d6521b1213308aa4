import { RECALL_WEIGHTS, type RecallScore, type RecallTerms } from '../../../domain/recall/score';

/**
 * The "why" view of a recall hit: the three terms of seed 002 REQ-LTM-005
 * (relevance = symbol × 0.4 + recency × 0.3 + context × 0.3), each with its score, weight and contribution.
 */
export interface ExplainRow {
  term: keyof RecallTerms;
  score: number;
  weight: number;
  contribution: number;
}

const ORDER: readonly (keyof RecallTerms)[] = ['symbol', 'recency', 'context'];

export function explainRows(explain: Pick<RecallScore, 'terms' | 'weighted'>): ExplainRow[] {
  return ORDER.map((term) => ({
    term,
    score: explain.terms[term],
    weight: RECALL_WEIGHTS[term],
    contribution: explain.weighted[term],
  }));
}

/** Scores are 0..1; two decimals tell hits apart without pretending to more precision. */
export function formatScore(value: number, locale: string): string {
  if (!Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}
