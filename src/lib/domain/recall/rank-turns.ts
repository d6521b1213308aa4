/**
 * Seed 002 recall over turns, every signal kept (issue 8). Pure: the engine supplies the candidates' facts.
 *
 *   context_similarity = RRF( turn ranking: bm25 × speaker cue, plus the neighbours' share,
 *                             session ranking: the session's best turns together )
 *   recency            = temporal fit / recent-decay / timeless (time-fit.ts)
 *   symbol_match       = the turn's symbol-index relevance for the query's symbols
 *   relevance          = symbol × 0.4 + recency × 0.3 + context × 0.3      (002 REQ-LTM-005, score.ts)
 */
import { holdsAnswerType, type AnswerType } from './answer-type';
import type { RetrievalConfig } from './config';
import { termCoverage, type WeightedTerm } from './coverage';
import { fuseRanks, lexicalScores, ranksOf, sessionScores, withNeighbours, type Neighbours } from './fusion';
import { recallScore, symbolMatchScore, type RecallScore } from './score';
import { recencyBasis, recencyTerm, type RecencyBasis } from './time-fit';
import type { TimeRange } from '../text/time-calendar';

export interface TurnFacts {
  id: number;
  sessionId: string;
  turnNo: number;
  role: 'user' | 'assistant';
  createdAt: number;
  /** The turn asks something (contains a question mark): the turn after it is likely its answer. */
  question: boolean;
  prev: number | null;
  next: number | null;
}

/** How a turn became a candidate. */
export type CandidateLane = 'text' | 'neighbour' | 'symbol' | 'time';

export interface TurnSignals {
  lane: CandidateLane;
  /** The turn's own bm25 relative to the best candidate (0..1), before any cue. */
  lexical: number;
  /** The better neighbour's lexical score, of which the turn borrows `neighbourWeight`. */
  neighbour: number;
  /** The speaker-cue multiplier this turn got (1 = none). */
  speaker: number;
  /** 1-based places in the turn and session rankings that were fused (null = not listed). */
  turnRank: number | null;
  sessionRank: number | null;
  recencyBasis: RecencyBasis;
  /** Re-ranking (null when the turn was not re-ranked): weighted share of the question's keywords covered … */
  coverage: number | null;
  /** … and whether it holds what the question asks for (null: the question asks for no particular type). */
  answerType: boolean | null;
}

export interface RankedTurn {
  id: number;
  score: RecallScore;
  signals: TurnSignals;
  matchedSymbols: string[];
  ftsRank: number | null;
}

export interface RankTurnsInput {
  facts: ReadonlyMap<number, TurnFacts>;
  /** bm25 per text candidate (FTS5: negative, lower is better). */
  ftsRanks: ReadonlyMap<number, number>;
  /** turn → (lower-cased symbol → relevance) from the symbol index. */
  symbolHits: ReadonlyMap<number, ReadonlyMap<string, number>>;
  querySymbols: readonly string[];
  /** Turns found only by the query's time range. */
  timeLane: ReadonlySet<number>;
  /** Is this turn written by the speaker the question is about? (role or named-participant cue) */
  cued: ((t: TurnFacts) => boolean) | null;
  now: number;
  ranges: readonly TimeRange[];
  recentCue: boolean;
  /** Second-stage factors of the head (refineHead); absent in the first stage. */
  refined?: ReadonlyMap<number, Refinement>;
  config: Pick<RetrievalConfig, 'neighbours' | 'sessionStage' | 'timeAware' | 'neighbourWeight' | 'answerWeight' | 'rrfK' | 'sessionWeight' | 'speakerBoost'>;
}

export function rankTurns(input: RankTurnsInput): RankedTurn[] {
  const { facts, config: cfg } = input;
  const lexical = lexicalScores(input.ftsRanks);
  const speakerOf = (id: number) => {
    const f = facts.get(id);
    return f && input.cued?.(f) ? cfg.speakerBoost : 1;
  };
  const own = new Map<number, number>();
  for (const [id, s] of lexical) own.set(id, s * speakerOf(id));

  const links = new Map<number, Neighbours<number>>();
  if (cfg.neighbours) {
    for (const f of facts.values()) {
      const answers = f.prev !== null && (facts.get(f.prev)?.question ?? false);
      links.set(f.id, { prev: f.prev, next: f.next, prevWeight: answers ? cfg.answerWeight : cfg.neighbourWeight, nextWeight: cfg.neighbourWeight });
    }
  }
  // A neighbour lends its plain lexical score; the cue multiplies the turn's total.
  const lent = cfg.neighbours ? withNeighbours(lexical, links) : lexical;
  const turnScores = new Map<number, number>();
  for (const [id, s] of lent) turnScores.set(id, s * speakerOf(id) * (input.refined?.get(id)?.factor ?? 1));

  const turnRanks = ranksOf(turnScores);
  const sessionRanks = cfg.sessionStage ? ranksOf(sessionScores(turnScores, (id) => facts.get(id)?.sessionId)) : new Map<string, number>();

  let newest = 0;
  for (const f of facts.values()) newest = Math.max(newest, f.createdAt);
  const timeCtx = { now: input.now, ranges: input.ranges, recentCue: input.recentCue, timeAware: cfg.timeAware, newest };
  const basis = recencyBasis(timeCtx);

  const out: RankedTurn[] = [];
  for (const f of facts.values()) {
    const matched = input.symbolHits.get(f.id) ?? new Map<string, number>();
    const symbol = symbolMatchScore(input.querySymbols, matched);
    const turnRank = turnRanks.get(f.id);
    const sessionRank = cfg.sessionStage ? sessionRanks.get(f.sessionId) : undefined;
    const parts = [{ rank: turnRank, weight: 1 }];
    if (cfg.sessionStage) parts.push({ rank: turnRank === undefined ? undefined : sessionRank, weight: cfg.sessionWeight });
    const context = turnRank === undefined ? 0 : fuseRanks(parts, cfg.rrfK);
    if (symbol === 0 && context === 0 && !input.timeLane.has(f.id)) continue;
    const lane: CandidateLane = input.ftsRanks.has(f.id) ? 'text' : symbol > 0 ? 'symbol' : turnRank !== undefined ? 'neighbour' : 'time';
    const neighbourIds = [f.prev, f.next].filter((x): x is number => x !== null);
    out.push({
      id: f.id,
      score: recallScore({ symbol, recency: recencyTerm(f.createdAt, timeCtx), context }),
      signals: {
        lane,
        lexical: lexical.get(f.id) ?? 0,
        neighbour: cfg.neighbours ? Math.max(0, ...neighbourIds.map((n) => lexical.get(n) ?? 0)) : 0,
        speaker: speakerOf(f.id),
        turnRank: turnRank ?? null,
        sessionRank: sessionRank ?? null,
        recencyBasis: basis,
        coverage: input.refined?.get(f.id)?.coverage ?? null,
        answerType: input.refined?.get(f.id)?.answerType ?? null,
      },
      matchedSymbols: input.querySymbols.filter((q) => matched.has(q.toLowerCase())),
      ftsRank: input.ftsRanks.get(f.id) ?? null,
    });
  }
  return out;
}

export interface RerankInput {
  head: readonly RankedTurn[];
  facts: ReadonlyMap<number, TurnFacts>;
  /** Texts of the head's turns and of the questions they answer. */
  texts: ReadonlyMap<number, string>;
  terms: readonly WeightedTerm[];
  answerType: AnswerType | null;
  config: Pick<RetrievalConfig, 'coverageWeight' | 'answerTypeWeight'>;
}

export interface Refinement {
  coverage: number;
  answerType: boolean | null;
  /** Multiplies the turn's score in the turn ranking. */
  factor: number;
}

/**
 * Second stage over the best candidates, with their text: how much of the question a turn covers (a reply together
 * with the question it answers) and whether it holds what the question asks for. The factor scales the turn's score
 * in the turn ranking, so the fusion and 002's formula run again on refined ranks.
 */
export function refineHead(input: RerankInput): Map<number, Refinement> {
  const { config: cfg } = input;
  const out = new Map<number, Refinement>();
  for (const r of input.head) {
    const f = input.facts.get(r.id);
    const own = input.texts.get(r.id) ?? '';
    const prev = f?.prev != null && input.facts.get(f.prev)?.question ? (input.texts.get(f.prev) ?? '') : '';
    const coverage = termCoverage(prev ? `${prev}\n${own}` : own, input.terms);
    const typed = input.answerType === null ? null : holdsAnswerType(own, input.answerType);
    const factor = (1 - cfg.coverageWeight + cfg.coverageWeight * coverage) * (typed === false ? 1 - cfg.answerTypeWeight : 1);
    out.set(r.id, { coverage, answerType: typed, factor });
  }
  return out;
}
