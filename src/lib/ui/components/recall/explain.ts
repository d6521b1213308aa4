import type { TurnSignals } from '../../../domain/recall/rank-turns';
import type { RecallExplain } from '../../../engine/recall/types';
import type { recall } from '../../i18n/locales/en/recall';
import type { LeafKeys } from '../../i18n/types';
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

/**
 * The signals behind a hit's context and recency terms (issue 8), as message keys with their values, in the order
 * the ranking used them: how the turn was found, its own word match, what it borrowed from the turns around it and
 * its conversation, the speaker cue, its place in the ranking by context similarity, the second-stage checks, and
 * what recency meant for this question.
 */
export type SignalKey = LeafKeys<(typeof recall)['ask']['signals']>;

export interface SignalLine {
  key: SignalKey;
  params: Record<string, string | number>;
}

export function signalLines(signals: TurnSignals, locale: string): SignalLine[] {
  const fmt = (x: number) => formatScore(x, locale);
  const lines: SignalLine[] = [{ key: `lane.${signals.lane}`, params: {} }];
  if (signals.lexical > 0) lines.push({ key: 'lexical', params: { value: fmt(signals.lexical) } });
  if (signals.neighbour > 0) lines.push({ key: 'neighbour', params: { value: fmt(signals.neighbour) } });
  if (signals.nearby > 0) lines.push({ key: 'nearby', params: { value: fmt(signals.nearby) } });
  if (signals.session > 0) lines.push({ key: 'session', params: { value: fmt(signals.session) } });
  if (signals.speaker !== 1) lines.push({ key: signals.cue === null ? 'speakerUnknown' : 'speaker', params: { value: Math.round(signals.speaker * 100) / 100 } });
  if (signals.turnRank !== null) lines.push({ key: 'turnRank', params: { turn: signals.turnRank } });
  if (signals.coverage !== null) lines.push({ key: 'coverage', params: { value: `${Math.round(signals.coverage * 100)}%` } });
  if (signals.answerType !== null) lines.push({ key: signals.answerType ? 'answerType.yes' : 'answerType.no', params: {} });
  if (signals.statement) lines.push({ key: 'statement', params: { value: `${Math.round(signals.statement * 100)}%` } });
  if (signals.semantic !== null && signals.semanticRank !== null) lines.push({ key: 'semantic', params: { value: fmt(signals.semantic), rank: signals.semanticRank } });
  lines.push({ key: `recency.${signals.recencyBasis}`, params: {} });
  return lines;
}

/** The signal that put a hit where it is, named above the details (issue 8: "which signal ranked each result"). */
export type RankedBy = 'symbol' | 'time' | 'neighbour' | 'meaning' | 'words';

/**
 * A symbol match that weighs at least as much as the context term ranked it; a turn found only through the time the
 * question names was ranked by that time; a turn whose neighbours (next to it or two places away) match more than its
 * own words (the reply to a matching question) was ranked by them; otherwise by its own words.
 */
export function rankedBy(explain: Pick<RecallExplain, 'weighted' | 'signals'>): RankedBy {
  if (explain.weighted.symbol > 0 && explain.weighted.symbol >= explain.weighted.context) return 'symbol';
  if (explain.signals.lane === 'time') return 'time';
  if (Math.max(explain.signals.neighbour, explain.signals.nearby) > explain.signals.lexical) return 'neighbour';
  // Found by its embedding only, or its meaning placed it better than its words did (issue 18).
  const byMeaning = explain.signals.semanticRank;
  if (byMeaning != null && (explain.signals.lexical === 0 || byMeaning < (explain.signals.turnRank ?? Infinity))) return 'meaning';
  return 'words';
}
