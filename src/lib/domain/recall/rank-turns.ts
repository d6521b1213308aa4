/**
 * Seed 002 recall over turns, every signal kept (issue 8). Pure: the engine supplies the candidates' facts.
 *
 *   context_similarity = (bm25 + the neighbours' share + its conversation's share) × speaker cue × second-stage factor,
 *                        relative to the best
 *   recency            = temporal fit / recent-decay / timeless (time-fit.ts)
 *   symbol_match       = the turn's symbol-index relevance for the query's symbols
 *   relevance          = symbol × 0.4 + recency × 0.3 + context × 0.3      (002 REQ-LTM-005, score.ts)
 *
 * With an embedding model (issue 18), context similarity is the reciprocal-rank fusion of that lexical ranking and
 * the ranking by the question's cosine similarity (fusion.ts `fuseRanks`), relative to the best.
 */
import { holdsAnswerType, type AnswerType } from './answer-type';
import type { RetrievalConfig } from './config';
import { coverageMatcher, type WeightedTerm } from './coverage';
import { bestPerGroup, fuseRanks, lexicalScores, ranksOf, withNeighbours, type Neighbours } from './fusion';
import { recallScore, symbolMatchScore, type RecallScore } from './score';
import { statementText } from './statements';
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
export type CandidateLane = 'text' | 'neighbour' | 'symbol' | 'time' | 'semantic';

export interface TurnSignals {
  lane: CandidateLane;
  /** The turn's own bm25 relative to the best candidate (0..1), before any cue. */
  lexical: number;
  /** The better neighbour's lexical score, of which the turn borrows `neighbourWeight`. */
  neighbour: number;
  /** The better lexical score of the turns two places away, of which it borrows `farWeight` (0 without). */
  nearby: number;
  /** Its conversation's best lexical score, of which it inherits `sessionWeight` (0 without). */
  session: number;
  /** The speaker-cue multiplier this turn got (1 = none; the square root of the boost when the cue is unknown) … */
  speaker: number;
  /** … and the cue: written by the person asked about (true), not (false), unknown in this conversation (null). */
  cue: boolean | null;
  /** 1-based place in the ranking by context similarity (null = not listed: found by symbol or time only). */
  turnRank: number | null;
  recencyBasis: RecencyBasis;
  /** Re-ranking (null when the turn was not re-ranked): weighted share of the question's keywords covered … */
  coverage: number | null;
  /** … whether it holds what the question asks for (null: the question asks for no particular type) … */
  answerType: boolean | null;
  /** … and the share of the question's keywords its first-person statements hold (null: not measured). */
  statement: number | null;
  /** Cosine similarity of the turn's embedding to the question's (null: no embedding lane, or the turn is not among its nearest). */
  semantic: number | null;
  /** 1-based place in the ranking by that similarity (null: not in it). */
  semanticRank: number | null;
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
  /**
   * Is this turn written by the speaker the question is about? (role or named-participant cue; null: unknown — a
   * named participant whose role this conversation does not show)
   */
  cued: ((t: TurnFacts) => boolean | null) | null;
  /** The cue's multiplier (default config.speakerBoost; the engine passes roleBoost for a pronoun cue). */
  cueBoost?: number;
  now: number;
  ranges: readonly TimeRange[];
  recentCue: boolean;
  /** Second-stage factors of the head (refineHead); absent in the first stage. */
  refined?: ReadonlyMap<number, Refinement>;
  /** The embedding lane: turn → cosine similarity to the question, for its nearest turns (absent: lexical only). */
  semantic?: ReadonlyMap<number, number>;
  config: Pick<
    RetrievalConfig,
    'neighbours' | 'timeAware' | 'neighbourWeight' | 'answerWeight' | 'speakerBoost' | 'contextWindow' | 'farWeight' | 'sessionContext' | 'sessionWeight' | 'recentFloor'
  >;
}

/**
 * What the first stage knows of one candidate; the second stage only rescales `lent × speaker` (rankScored), so
 * the neighbour, symbol and recency work is done once per question.
 */
export interface TurnEvidence {
  id: number;
  /** For ties: the newer turn first. */
  createdAt: number;
  /** The turn's lexical score plus its neighbours' share (0..1); 0 when it matched nothing itself or nearby. */
  lent: number;
  symbol: number;
  recency: number;
  /** Cosine similarity to the question (0 when the turn is not among the embedding lane's nearest). */
  cosine: number;
  signals: Omit<TurnSignals, 'turnRank' | 'coverage' | 'answerType' | 'statement' | 'semanticRank'>;
  matchedSymbols: string[];
  ftsRank: number | null;
}

export function scoreTurns(input: Omit<RankTurnsInput, 'refined'>): TurnEvidence[] {
  const { facts, config: cfg } = input;
  const lexical = lexicalScores(input.ftsRanks);
  const links = new Map<number, Neighbours<number>>();
  if (cfg.neighbours) {
    for (const f of facts.values()) {
      const before = f.prev === null ? undefined : facts.get(f.prev);
      const link: Neighbours<number> = { prev: f.prev, next: f.next, prevWeight: before?.question ? cfg.answerWeight : cfg.neighbourWeight, nextWeight: cfg.neighbourWeight };
      if (cfg.contextWindow) {
        // Two places away: in a two-person chat, the same person's previous / next turn on the topic.
        link.farPrev = before?.prev ?? null;
        link.farNext = f.next === null ? null : (facts.get(f.next)?.next ?? null);
        link.farWeight = cfg.farWeight;
      }
      links.set(f.id, link);
    }
  }
  // A neighbour lends its plain lexical score; the cue multiplies the turn's total (rankScored).
  const lent = cfg.neighbours ? withNeighbours(lexical, links) : lexical;
  const sessionBest = cfg.sessionContext ? bestPerGroup(lexical, (id) => facts.get(id)?.sessionId) : null;

  let newest = 0;
  for (const f of facts.values()) newest = Math.max(newest, f.createdAt);
  const timeCtx = { now: input.now, ranges: input.ranges, recentCue: input.recentCue, timeAware: cfg.timeAware, newest, recentFloor: cfg.recentFloor };
  const basis = recencyBasis(timeCtx);
  const boost = input.cueBoost ?? cfg.speakerBoost;

  const out: TurnEvidence[] = [];
  for (const f of facts.values()) {
    const matched = input.symbolHits.get(f.id);
    const symbol = matched ? symbolMatchScore(input.querySymbols, matched) : 0;
    let own = lent.get(f.id) ?? 0;
    const cosine = input.semantic?.get(f.id) ?? 0;
    if (symbol === 0 && own === 0 && cosine === 0 && !input.timeLane.has(f.id)) continue;
    // A turn that matched (itself or nearby) inherits a share of its conversation's best match.
    const session = sessionBest?.get(f.sessionId) ?? 0;
    if (own > 0) own += cfg.sessionWeight * session;
    const lane: CandidateLane = input.ftsRanks.has(f.id) ? 'text' : symbol > 0 ? 'symbol' : own > 0 ? 'neighbour' : cosine > 0 ? 'semantic' : 'time';
    const near = (n: number | null | undefined) => (n == null ? 0 : (lexical.get(n) ?? 0));
    const link = links.get(f.id);
    const cue = input.cued ? input.cued(f) : false;
    out.push({
      id: f.id,
      createdAt: f.createdAt,
      lent: own,
      cosine,
      symbol,
      recency: recencyTerm(f.createdAt, timeCtx),
      signals: {
        lane,
        lexical: lexical.get(f.id) ?? 0,
        neighbour: cfg.neighbours ? Math.max(near(f.prev), near(f.next)) : 0,
        nearby: Math.max(near(link?.farPrev), near(link?.farNext)),
        session: sessionBest ? session : 0,
        // Unknown (a named participant whose role this conversation does not show): neither cued nor not.
        speaker: cue === true ? boost : cue === null ? Math.sqrt(boost) : 1,
        cue,
        recencyBasis: basis,
        semantic: input.semantic ? cosine : null,
      },
      matchedSymbols: matched ? input.querySymbols.filter((q) => matched.has(q.toLowerCase())) : [],
      ftsRank: input.ftsRanks.get(f.id) ?? null,
    });
  }
  return out;
}

/**
 * 002's relevance from the evidence, with the second stage's factors when given, best first (ties: newer first),
 * the `top` best only when given. Context similarity is the turn's score relative to the best candidate's: what
 * makes a turn relevant is how much more of the question it (and the turn it answers) holds than the rest. With an
 * embedding lane (`semantic`), it is the reciprocal-rank fusion of the lexical ranking and the ranking by cosine
 * similarity (each × the speaker cue), relative to the best fused score.
 */
export function rankScored(
  evidence: readonly TurnEvidence[],
  opts: { refined?: ReadonlyMap<number, Refinement>; top?: number; semantic?: { weight: number; k: number } } = {},
): RankedTurn[] {
  const { refined } = opts;
  const turnScores = new Map<number, number>();
  for (const e of evidence) if (e.lent > 0) turnScores.set(e.id, e.lent * e.signals.speaker * (refined?.get(e.id)?.factor ?? 1));
  const turnRanks = ranksOf(turnScores);
  const cosines = new Map<number, number>();
  if (opts.semantic && opts.semantic.weight > 0) for (const e of evidence) if (e.cosine > 0) cosines.set(e.id, e.cosine * e.signals.speaker);
  const semanticRanks = ranksOf(cosines);
  const contextScores = cosines.size
    ? fuseRanks([{ ranks: turnRanks, weight: 1 }, { ranks: semanticRanks, weight: opts.semantic?.weight ?? 0 }], opts.semantic?.k ?? 60)
    : turnScores;
  let best = 0;
  for (const s of contextScores.values()) best = Math.max(best, s);
  // Relevance for every candidate, but the explained result objects only for the `top` that can be listed.
  const scored = evidence.map((e) => {
    const context = best > 0 ? (contextScores.get(e.id) ?? 0) / best : 0;
    return { e, context, relevance: recallScore({ symbol: e.symbol, recency: e.recency, context }).relevance };
  });
  scored.sort((a, b) => b.relevance - a.relevance || b.e.createdAt - a.e.createdAt);
  return scored.slice(0, opts.top ?? scored.length).map(({ e, context }) => {
    const r = refined?.get(e.id);
    return {
      id: e.id,
      score: recallScore({ symbol: e.symbol, recency: e.recency, context }),
      signals: { ...e.signals, turnRank: turnRanks.get(e.id) ?? null, coverage: r?.coverage ?? null, answerType: r?.answerType ?? null, statement: r?.statement ?? null, semanticRank: semanticRanks.get(e.id) ?? null },
      matchedSymbols: e.matchedSymbols,
      ftsRank: e.ftsRank,
    };
  });
}

export function rankTurns(input: RankTurnsInput): RankedTurn[] {
  return rankScored(scoreTurns(input), { refined: input.refined, ...(input.semantic ? { semantic: { weight: 1, k: 60 } } : {}) });
}

export interface RerankInput {
  head: readonly RankedTurn[];
  facts: ReadonlyMap<number, TurnFacts>;
  /** Texts of the head's turns and of the questions they answer. */
  texts: ReadonlyMap<number, string>;
  terms: readonly WeightedTerm[];
  answerType: AnswerType | null;
  config: Pick<RetrievalConfig, 'coverageWeight' | 'answerTypeWeight' | 'statements' | 'statementWeight'>;
}

export interface Refinement {
  coverage: number;
  answerType: boolean | null;
  /** Share of the question's words held by the turn's first-person statements (null: not measured). */
  statement: number | null;
  /** Multiplies the turn's score in the turn ranking. */
  factor: number;
}

/**
 * Second stage over the best candidates, with their text: how much of the question a turn covers (a reply together
 * with the question it answers), whether it holds what the question asks for, and how much of the question its
 * writer states about themselves (statements.ts). The factor scales the turn's score in the turn ranking, so the
 * fusion and 002's formula run again on refined ranks.
 */
export function refineHead(input: RerankInput): Map<number, Refinement> {
  const { config: cfg } = input;
  const out = new Map<number, Refinement>();
  const coverageOf = coverageMatcher(input.terms);
  for (const r of input.head) {
    const f = input.facts.get(r.id);
    const own = input.texts.get(r.id) ?? '';
    const prev = f?.prev != null && input.facts.get(f.prev)?.question ? (input.texts.get(f.prev) ?? '') : '';
    const coverage = coverageOf(prev ? `${prev}\n${own}` : own);
    const typed = input.answerType === null ? null : holdsAnswerType(own, input.answerType);
    // A turn that covers nothing cannot state any of it: the sentences are read only where they can count.
    const stated = cfg.statements && coverage > 0 ? statementText(own) : '';
    const statement = cfg.statements ? (stated ? coverageOf(stated) : 0) : null;
    const factor =
      (1 - cfg.coverageWeight + cfg.coverageWeight * coverage) * (typed === false ? 1 - cfg.answerTypeWeight : 1) * (1 + cfg.statementWeight * (statement ?? 0));
    out.set(r.id, { coverage, answerType: typed, statement, factor });
  }
  return out;
}
