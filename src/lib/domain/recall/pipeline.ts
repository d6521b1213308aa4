/**
 * Turn recall, seed 002 memory_recall (REQ-LTM-005), as one pipeline read top to bottom (issue 18). Pure: every
 * read goes through the TurnSource port (engine/recall/turn-index.ts over SQLite), every number comes from
 * RetrievalConfig, and the question's embedding neighbours (when a model is configured) come in as `semantic`.
 *
 *   1 query       keywords, symbols, time expressions, recency / role / name cues           (query-cues.ts)
 *   2 candidates  bm25 lanes (term-selection.ts) ∪ symbol index ∪ the time range ∪ the embedding neighbours,
 *                 with the neighbouring turns of the best
 *   3 score       bm25 → 0..1, + neighbours' share, + its conversation's share, × speaker cue; symbol match;
 *                 recency / time fit                                                        (rank-turns.ts scoreTurns)
 *   4 refine      the head's texts: coverage × answer type × first-person statements       (rank-turns.ts refineHead)
 *   5 order       002's relevance; context = lexical rank ⊕ embedding rank (RRF)           (rank-turns.ts rankScored)
 *                 and the conversations as units: document rank ⊕ best-turn rank ⊕ meaning (session-rank.ts)
 *   6 explain     the list: no third near-copy; a summarised block with many relevant turns lists its summary once;
 *                 every hit carries its terms and signals                                   (score.ts listHits)
 *
 * Works across all conversations (SC-LTM-004); the current session's most recent turns are left out, as they are in
 * the context in full.
 */
import { answerType } from './answer-type';
import type { RetrievalConfig } from './config';
import type { WeightedTerm } from './coverage';
import { sumRanks } from './fusion';
import { rankScored, refineHead, scoreTurns, type RankedTurn, type TurnFacts } from './rank-turns';
import { nameCandidates, recencyCue, roleCue, withoutTimeWords } from './query-cues';
import { nearCopies, shingles } from './redundancy';
import { listHits } from './score';
import { rankConversations } from './session-rank';
import { speakersFromMentions, type Role } from './speakers';
import { selectTerms } from './term-selection';
import { recencyBasis } from './time-fit';
import type { SummaryBlock, TurnSource, TurnText } from './turn-source';
import type { ConversationHit, RecallHit, RecallQueryInfo, RecallResponse } from './types';
import { buildMatchQuery } from '../text/fts-query';
import { extractKeywords } from '../text/keywords';
import { querySymbols } from '../text/symbols';
import { resolveTimeExpressions } from '../text/time-expressions';

export interface RecallInput {
  query: string;
  limit: number;
  currentSessionId?: string;
  recentTurns: number;
  blockSize: number;
  includeSummaries: boolean;
}

/** The embedding lane for one question: its nearest turns (cosine) and how it went (shown in `query.semantic`). */
export interface SemanticLane {
  turns: ReadonlyMap<number, number>;
  info: RecallQueryInfo['semantic'];
}

export const LEXICAL_ONLY: RecallQueryInfo['semantic'] = Object.freeze({ state: 'off', model: null, reason: null, coverage: null });

export function recallTurns(
  input: RecallInput,
  deps: { source: TurnSource; now: number; config: RetrievalConfig; semantic?: SemanticLane | null },
): Omit<RecallResponse, 'latencyMs'> {
  return recallFromLexical(lexicalStage(input, deps), deps);
}

/** What the lexical lanes found (steps 1–2 without the embedding neighbours): it needs nothing of the question's vector. */
export type LexicalStage = ReturnType<typeof lexicalStage>;

/**
 * Steps 1 and 2's lexical lanes. Split from the rest so a caller can run them while the question's embedding is on
 * its way (engine/recall/recall-service.ts): the bm25, symbol and time reads do not wait for the endpoint.
 */
export function lexicalStage(input: RecallInput, deps: { source: TurnSource; now: number; config: RetrievalConfig }) {
  const { source, now, config: cfg } = deps;
  // ── 1 query ────────────────────────────────────────────────────────────────────────────────────────────────────
  const symbols = querySymbols(input.query);
  const keywords = extractKeywords(input.query);
  const times = cfg.timeAware ? resolveTimeExpressions(input.query, { now }) : [];
  const ranges = times.map((t) => ({ start: t.start, end: t.end }));
  const recentCue = recencyCue(input.query);
  const who = cfg.speakerCue ? readSpeaker(input.query, source, cfg) : null;
  // A resolved name is who, not what; the question's time is matched as time (temporal fit), not as text.
  const drop = new Set(who?.speaker.names.map((n) => n.toLowerCase()) ?? []);
  const textKeywords = withoutTimeWords(keywords.filter((k) => !drop.has(k.toLowerCase())), times.map((t) => t.expression));

  // ── 2 candidates ───────────────────────────────────────────────────────────────────────────────────────────────
  const terms = selectTerms([...textKeywords, ...symbols], { index: source, config: cfg });
  const ftsRanks = sumRanks(terms.lanes.map((lane) => source.ranked(lane.match, { limit: cfg.candidates, from: lane.from })));
  const symbolHits = source.symbolHits(symbols, { limit: cfg.symbolHits, window: cfg.symbolWindow });
  const timeLane = new Set(ranges.flatMap((r) => source.inRange(r, cfg.timeLane)));
  // The turns around the best text candidates (a turn found only there is scored by what it borrows).
  const around = cfg.neighbours ? bestOf(ftsRanks, cfg.neighboured) : [];
  return { input, symbols, keywords, times, ranges, recentCue, who, terms, ftsRanks, symbolHits, timeLane, around };
}

/** Steps 2 (the embedding neighbours joined to the lexical candidates) to 6. */
export function recallFromLexical(
  stage: LexicalStage,
  deps: { source: TurnSource; now: number; config: RetrievalConfig; semantic?: SemanticLane | null },
): Omit<RecallResponse, 'latencyMs'> {
  const { source, now, config: cfg } = deps;
  const { input, symbols, keywords, times, ranges, recentCue, who, terms, ftsRanks, symbolHits, timeLane, around } = stage;
  const semantic = deps.semantic && cfg.semanticWeight > 0 && deps.semantic.turns.size > 0 ? deps.semantic : null;
  const ids = new Set([...ftsRanks.keys(), ...symbolHits.keys(), ...timeLane, ...(semantic?.turns.keys() ?? [])]);
  const facts = source.facts(ids, around, { farAround: cfg.contextWindow ? cfg.farAround : 0, questionChars: cfg.questionChars });
  // The current conversation's last turns are in the context already.
  const excludeFrom = input.currentSessionId ? source.recentFrom(input.currentSessionId, input.recentTurns) : 0;
  for (const [id, f] of facts) if (f.sessionId === input.currentSessionId && f.turnNo > excludeFrom) facts.delete(id);

  // ── 3 score ────────────────────────────────────────────────────────────────────────────────────────────────────
  // A pronoun cue ("I", "you said") in a chat with an assistant: facts about a side are in what that side wrote.
  const cueBoost = who?.speaker.kind === 'role' ? cfg.roleBoost : cfg.speakerBoost;
  const evidence = scoreTurns({
    facts, ftsRanks, symbolHits, querySymbols: symbols, timeLane, cued: who?.cued ?? null, cueBoost, now, ranges, recentCue, config: cfg,
    ...(semantic ? { semantic: semantic.turns } : {}),
  });
  const fusion = semantic ? { semantic: { weight: cfg.semanticWeight, k: cfg.fusionK } } : {};
  const top = input.limit * cfg.headFactor + cfg.headExtra;
  let ranked = rankScored(evidence, { top, ...fusion });

  // ── 4 refine ───────────────────────────────────────────────────────────────────────────────────────────────────
  const read = textReader(source);
  let refined = cfg.rerank
    ? refineHead({ head: ranked, facts, texts: headTexts(ranked, facts, read), terms: terms.weighted, answerType: answerType(input.query), config: cfg })
    : undefined;
  if (refined) ranked = rankScored(evidence, { top, refined, ...fusion });

  // ── 5 order: the conversations as units, and what they lend their turns ───────────────────────────────────────
  let conversations = cfg.sessionRanking ? conversationRanking(ranked, facts, { source, lanes: terms.lanes, semantic, cfg, input }) : conversationsOfTurns(ranked, facts, source, input);
  if (cfg.sessionRanking && cfg.conversationBoost > 0) {
    const all = conversationRanking(ranked, facts, { source, lanes: terms.lanes, semantic, cfg, input: { ...input, limit: cfg.sessionCandidates } });
    const rel = new Map(all.map((c) => [c.conversationId, c.relevance]));
    const boosted = new Map(refined ?? []);
    for (const r of ranked) {
      const f = facts.get(r.id);
      const base = boosted.get(r.id) ?? { coverage: 0, answerType: null, statement: null, factor: 1 };
      boosted.set(r.id, { ...base, factor: base.factor * (1 + cfg.conversationBoost * (rel.get(f?.sessionId ?? '') ?? 0)) });
    }
    refined = boosted;
    ranked = rankScored(evidence, { top, refined, ...fusion });
    conversations = all.slice(0, input.limit);
  }

  // ── 6 explain ──────────────────────────────────────────────────────────────────────────────────────────────────
  const results = listed(ranked, facts, input, { source, read });
  const query: RecallQueryInfo = {
    keywords,
    symbols,
    terms: terms.kept,
    windowed: terms.windowed,
    times: times.map((t) => ({ expression: t.expression, start: t.start, end: t.end })),
    recency: recencyBasis({ ranges, recentCue, timeAware: cfg.timeAware }),
    speaker: who?.speaker ?? null,
    semantic: deps.semantic?.info ?? LEXICAL_ONLY,
  };
  return { results, conversations, totalSearched: source.totalSearched(), query };
}

/** Who the question is about: named participants decide in the conversations where their names resolve; elsewhere the pronouns do. */
function readSpeaker(query: string, source: TurnSource, cfg: RetrievalConfig): { cued: (t: TurnFacts) => boolean | null; speaker: NonNullable<RecallQueryInfo['speaker']> } | null {
  const roles = new Map<string, Set<Role>>();
  const resolved: string[] = [];
  for (const name of nameCandidates(query).slice(0, cfg.maxNames)) {
    const match = buildMatchQuery([name], { prefix: false });
    if (!match) continue;
    const found = speakersFromMentions(source.mentions(match, cfg.nameMentions), name);
    if (found.size === 0) continue;
    resolved.push(name);
    for (const [session, role] of found) roles.set(session, (roles.get(session) ?? new Set<Role>()).add(role));
  }
  const role = roleCue(query);
  if (resolved.length === 0 && !role) return null;
  return {
    // A conversation where the name shows no role and no pronoun points anywhere: unknown (null), not "no".
    cued: (t) => roles.get(t.sessionId)?.has(t.role) ?? (role === null ? null : t.role === role),
    speaker: { kind: resolved.length > 0 ? 'named' : 'role', names: resolved, role },
  };
}

/** The ids of the `n` best bm25 ranks (lower is better), best first. */
function bestOf(ranks: ReadonlyMap<number, number>, n: number): number[] {
  return [...ranks].sort((a, b) => a[1] - b[1]).slice(0, n).map(([id]) => id);
}

type TextReader = (ids: Iterable<number>) => Map<number, TurnText>;

/** Turn texts read at most once per question: the second stage reads the head, the list shows a few of them. */
function textReader(source: TurnSource): TextReader {
  const known = new Map<number, TurnText>();
  return (ids) => {
    const list = [...ids];
    const missing = list.filter((id) => !known.has(id));
    if (missing.length) for (const [id, t] of source.texts(missing)) known.set(id, t);
    const out = new Map<number, TurnText>();
    for (const id of list) {
      const t = known.get(id);
      if (t) out.set(id, t);
    }
    return out;
  };
}

/** The head's texts and those of the questions its replies answer (coverage reads a reply with its question). */
function headTexts(head: readonly RankedTurn[], facts: ReadonlyMap<number, TurnFacts>, read: TextReader): Map<number, string> {
  const ids = new Set<number>();
  for (const r of head) {
    ids.add(r.id);
    const prev = facts.get(r.id)?.prev;
    if (prev != null && facts.get(prev)?.question) ids.add(prev);
  }
  return new Map([...read(ids)].map(([id, t]) => [id, t.content] as const));
}

/** The session ranking (session-rank.ts): documents (user turns + summaries) ⊕ the turn ranking ⊕ meaning. */
function conversationRanking(
  ranked: readonly RankedTurn[],
  facts: ReadonlyMap<number, TurnFacts>,
  opts: { source: TurnSource; lanes: readonly { match: string; from: number }[]; semantic: SemanticLane | null; cfg: RetrievalConfig; input: RecallInput },
): ConversationHit[] {
  const { source, cfg, input } = opts;
  const documents = opts.lanes.length && cfg.sessionDocumentWeight > 0 ? source.sessionDocuments(opts.lanes, cfg.sessionCandidates) : new Map<string, number>();
  // The current conversation is in the context already: it is never "the one it was".
  if (input.currentSessionId) documents.delete(input.currentSessionId);
  let semantic: Map<string, number> | undefined;
  if (opts.semantic) {
    semantic = new Map();
    for (const [id, cos] of opts.semantic.turns) {
      const s = facts.get(id)?.sessionId;
      if (s !== undefined && cos > (semantic.get(s) ?? 0)) semantic.set(s, cos);
    }
  }
  const turns = ranked.flatMap((r) => {
    const f = facts.get(r.id);
    return f ? [{ id: r.id, conversationId: f.sessionId }] : [];
  });
  const ranks = rankConversations({
    turns, documents, semantic, semanticWeight: cfg.semanticWeight, documentWeight: cfg.sessionDocumentWeight, turnWeight: cfg.sessionTurnWeight, k: cfg.sessionFusionK, limit: input.limit,
  });
  const info = source.sessionInfo(ranks.map((r) => r.conversationId));
  return ranks.flatMap((r) => {
    const s = info.get(r.conversationId);
    return s ? [{ ...r, sessionTitle: s.title, lastActive: s.lastActive }] : [];
  });
}

/** Without the session ranking: the conversations in the order their turns first appear in the turn ranking. */
function conversationsOfTurns(ranked: readonly RankedTurn[], facts: ReadonlyMap<number, TurnFacts>, source: TurnSource, input: RecallInput): ConversationHit[] {
  const firsts = new Map<string, number>();
  for (const r of ranked) {
    const s = facts.get(r.id)?.sessionId;
    if (s !== undefined && !firsts.has(s)) firsts.set(s, r.id);
  }
  const order = [...firsts].slice(0, input.limit);
  const info = source.sessionInfo(order.map(([s]) => s));
  return order.flatMap(([conversationId, bestTurnId], i) => {
    const s = info.get(conversationId);
    return s ? [{ conversationId, sessionTitle: s.title, lastActive: s.lastActive, relevance: 1 / (i + 1), documentRank: null, turnRank: i + 1, bestTurnId }] : [];
  });
}

type Light = Omit<RecallHit, 'content' | 'summary' | 'sessionTitle'> & { block: string; cover: SummaryBlock | undefined };

/** Ranked turns → the list shown: near-copies left out, summaries standing in for their block's many turns. */
function listed(ranked: readonly RankedTurn[], facts: ReadonlyMap<number, TurnFacts>, input: RecallInput, deps: { source: TurnSource; read: TextReader }): RecallHit[] {
  const { source, read } = deps;
  const headFacts = ranked.map((r) => facts.get(r.id)).filter((f): f is TurnFacts => f !== undefined);
  const blocks = new Map<string, SummaryBlock[]>();
  if (input.includeSummaries && headFacts.length) for (const b of source.summaryBlocks(headFacts)) blocks.set(b.sessionId, [...(blocks.get(b.sessionId) ?? []), b]);
  const covering = (sessionId: string, turnNo: number) => blocks.get(sessionId)?.find((b) => b.startTurn <= turnNo && turnNo <= b.endTurn);
  const light: Light[] = [];
  for (const r of ranked) {
    const f = facts.get(r.id);
    if (!f) continue;
    const cover = covering(f.sessionId, f.turnNo);
    light.push({
      block: cover ? `summary:${cover.id}` : `${f.sessionId}:${Math.floor((f.turnNo - 1) / input.blockSize)}`,
      cover,
      conversationId: f.sessionId,
      turnId: f.id,
      turnNo: f.turnNo,
      role: f.role,
      summaryId: null,
      turnRange: null,
      relevance: r.score.relevance,
      createdAt: f.createdAt,
      isSummary: false,
      explain: { ...r.score, matchedSymbols: r.matchedSymbols, ftsRank: r.ftsRank, signals: r.signals },
    });
  }
  // Near-copies are told apart by their texts (read already for the second stage, as a rule).
  const shingled = new Map<number, Set<string>>();
  const shinglesOf = (h: Light) => {
    const id = h.turnId ?? -1;
    let s = shingled.get(id);
    if (!s) shingled.set(id, (s = shingles(read([id]).get(id)?.content ?? '')));
    return s;
  };
  const chosen = listHits(light, input.limit, {
    copies: (a, b) => !a.isSummary && !b.isSummary && nearCopies(shinglesOf(a), shinglesOf(b)),
    // A summarised block with many relevant turns: its summary stands for them.
    standIn: (_block, hit): Light | null =>
      hit.cover
        ? {
            ...hit,
            turnId: null,
            turnNo: null,
            role: null,
            summaryId: hit.cover.id,
            turnRange: [hit.cover.startTurn, hit.cover.endTurn] as [number, number],
            createdAt: hit.cover.createdAt,
            isSummary: true,
            explain: { ...hit.explain, matchedSymbols: [] },
          }
        : null,
  });
  const texts = read(chosen.flatMap((h) => (h.turnId === null ? [] : [h.turnId])));
  const summaryTexts = source.summaryTexts(chosen.flatMap((h) => (h.summaryId === null ? [] : [h.summaryId])));
  return chosen.map(({ block: _b, cover: _c, ...h }) => {
    const text = h.turnId === null ? undefined : texts.get(h.turnId);
    const summary = h.summaryId === null ? undefined : summaryTexts.get(h.summaryId);
    return { ...h, content: text?.content ?? null, summary: summary?.summary ?? null, sessionTitle: text?.title ?? summary?.title ?? '' };
  });
}
