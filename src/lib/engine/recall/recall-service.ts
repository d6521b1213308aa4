import { retrievalConfig } from '../../domain/recall/config';
import { nameCandidates, recencyCue, roleCue, withoutTimeWords } from '../../domain/recall/query-cues';
import { answerType } from '../../domain/recall/answer-type';
import { wordsHeld, type WeightedTerm } from '../../domain/recall/coverage';
import { categoryExpansions, type CategoryExpansion, type HyponymTable } from '../../domain/recall/categories';
import { rankScored, refineHead, scoreTurns, type RankedTurn, type Refinement, type TurnFacts } from '../../domain/recall/rank-turns';
import { listHits } from '../../domain/recall/score';
import { nearCopies, shingles } from '../../domain/recall/redundancy';
import { sumRanks } from '../../domain/recall/fusion';
import { gathers, withFirstStatements, spreadAcrossConversations } from '../../domain/recall/spread';
import { speakersFromMentions, type Role } from '../../domain/recall/speakers';
import { recencyBasis } from '../../domain/recall/time-fit';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { extractKeywords } from '../../domain/text/keywords';
import { querySymbols } from '../../domain/text/symbols';
import { resolveTimeExpressions } from '../../domain/text/time-expressions';
import type { EngineEnv } from '../env';
import { selectTerms } from './term-selection';
import { loadHyponyms } from './lexicon';
import { createTurnIndex, type SummaryBlock, type TurnText } from './turn-index';
import type { RecallHit, RecallQueryInfo, RecallResponse } from './types';

/** Turns a named time range adds as candidates (newest first), for questions like "what did we discuss yesterday". */
const TIME_LANE = 60;
/** Turns read to learn who a name in the question is (newest first). */
const NAME_MENTIONS = 200;
const MAX_NAMES = 3;
const SYMBOL_HITS = 50;
/** The best text candidates whose neighbours are read (a reply to a weak match cannot reach the list anyway). */
const NEIGHBOURED = 30;

/** The ids of the `n` best bm25 ranks (lower is better), best first. */
function bestOf(ranks: ReadonlyMap<number, number>, n: number): number[] {
  return [...ranks].sort((a, b) => a[1] - b[1]).slice(0, n).map(([id]) => id);
}

/** bm25 of one lane scaled by its weight (FTS5: negative, lower is better). */
function scaled(ranks: Map<number, number>, weight: number): Map<number, number> {
  if (weight !== 1) for (const [id, r] of ranks) ranks.set(id, r * weight);
  return ranks;
}

/** The head of the ranking that can reach a list of `limit`: limit × HEAD_FACTOR + HEAD_EXTRA. */
const HEAD_FACTOR = 4;
const HEAD_EXTRA = 20;

type TextReader = (ids: Iterable<number>) => Map<number, TurnText>;

type Light = Omit<RecallHit, 'content' | 'summary' | 'sessionTitle'> & { block: string; cover: SummaryBlock | undefined };

export interface RecallInput {
  query: string;
  limit: number;
  currentSessionId?: string;
  recentTurns: number;
  blockSize: number;
  includeSummaries: boolean;
}

/**
 * Seed 002 memory_recall, issue 8's retrieval (docs/design/06-retrieval.md):
 *
 *   query ─▶ keywords, symbols, time ranges, recency / role / name cues
 *        ─▶ candidates: bm25 over turns — rare terms in full, common ones among their newest matches, the most
 *             common pruned (term-plan.ts) — ∪ symbol index ∪ time range ∪ their neighbouring turns
 *        ─▶ scoreTurns + rankScored: context = (bm25 + neighbours' share) × speaker cue, relative to the best;
 *                      recency = temporal fit; symbol match          → 002's relevance
 *        ─▶ second stage over the head (coverage, answer type), rankScored again
 *        ─▶ listHits: best first; no third near-copy; a summarised block with many relevant turns (or a left-out
 *             copy) lists its summary once
 *
 * Works across all conversations (SC-LTM-004); the current session's most recent turns are left out, as they are
 * in the context in full.
 */
export function createRecallService(env: Pick<EngineEnv, 'driver' | 'clock' | 'retrieval'>) {
  const index = createTurnIndex(env.driver);
  const currentConfig = () => retrievalConfig(env.retrieval);
  /** WordNet's kinds (hyponyms), loaded by `prepare` the first time a question may need them. */
  let hyponyms: HyponymTable | null = null;

  /** Turn texts read at most once per question: the second stage reads the head, the list shows a few of them. */
  function textReader(): TextReader {
    const known = new Map<number, TurnText>();
    return (ids) => {
      const missing = [...ids].filter((id) => !known.has(id));
      if (missing.length) for (const [id, t] of index.texts(missing)) known.set(id, t);
      const out = new Map<number, TurnText>();
      for (const id of ids) {
        const t = known.get(id);
        if (t) out.set(id, t);
      }
      return out;
    };
  }

  /** Per conversation, the roles the question's names belong to, and the names that resolved. */
  function resolveNames(names: readonly string[]): { roles: Map<string, Set<Role>>; resolved: string[] } {
    const roles = new Map<string, Set<Role>>();
    const resolved: string[] = [];
    for (const name of names.slice(0, MAX_NAMES)) {
      const match = buildMatchQuery([name], { prefix: false });
      if (!match) continue;
      const found = speakersFromMentions(index.mentions(match, NAME_MENTIONS), name);
      if (found.size === 0) continue;
      resolved.push(name);
      for (const [session, role] of found) roles.set(session, (roles.get(session) ?? new Set<Role>()).add(role));
    }
    return { roles, resolved };
  }

  /** Only the head of the ranking can reach a list of `limit`; the rest is never read again. */
  const headSize = (limit: number) => limit * HEAD_FACTOR + HEAD_EXTRA;

  /** Second stage with the head's texts (and the questions its replies answer): coverage, answer type, statements. */
  function refine(head: RankedTurn[], facts: ReadonlyMap<number, TurnFacts>, opts: { terms: WeightedTerm[]; query: string; read: TextReader }): Map<number, Refinement> {
    const ids = new Set<number>();
    for (const r of head) {
      ids.add(r.id);
      const prev = facts.get(r.id)?.prev;
      if (prev != null && facts.get(prev)?.question) ids.add(prev);
    }
    const texts = new Map([...opts.read(ids)].map(([id, t]) => [id, t.content] as const));
    return refineHead({ head, facts, texts, terms: opts.terms, answerType: answerType(opts.query), config: currentConfig() });
  }

  /** Ranked turns → the list shown: near-copies left out, summaries standing in for their block's many turns. */
  function select(
    ranked: readonly RankedTurn[],
    facts: ReadonlyMap<number, TurnFacts>,
    input: RecallInput,
    read: TextReader,
    categories: readonly CategoryExpansion[] = [],
    kinds: readonly string[] = [],
  ): RecallHit[] {
    const head = ranked.slice(0, headSize(input.limit));
    const headFacts = head.map((r) => facts.get(r.id)).filter((f): f is TurnFacts => f !== undefined);
    const blocks = new Map<string, SummaryBlock[]>();
    if (input.includeSummaries && headFacts.length) for (const b of index.summaryBlocks(headFacts)) blocks.set(b.sessionId, [...(blocks.get(b.sessionId) ?? []), b]);
    const covering = (sessionId: string, turnNo: number) => blocks.get(sessionId)?.find((b) => b.startTurn <= turnNo && turnNo <= b.endTurn);
    const light: Light[] = [];
    for (const r of head) {
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
    const summaryTexts = index.summaryTexts(chosen.flatMap((h) => (h.summaryId === null ? [] : [h.summaryId])));
    // The kinds a listed turn holds, with the category each stands for ("chess ← board game").
    const held = kinds.length ? wordsHeld(kinds) : null;
    const categoryOf = (kind: string) => categories.find((c) => c.kinds.includes(kind))?.category ?? '';
    return chosen.map(({ block: _b, cover: _c, ...h }) => {
      const text = h.turnId === null ? undefined : texts.get(h.turnId);
      const summary = h.summaryId === null ? undefined : summaryTexts.get(h.summaryId);
      const found = held && text ? held(text.content).map((kind) => ({ kind, category: categoryOf(kind) })) : [];
      const explain = found.length ? { ...h.explain, kinds: found } : h.explain;
      return { ...h, explain, content: text?.content ?? null, summary: summary?.summary ?? null, sessionTitle: text?.title ?? summary?.title ?? '' };
    });
  }

  return {
    /**
     * Loads what `recall` may need beyond the database (WordNet's kinds, once per worker) — every caller awaits it
     * before `recall`; without it `recall` runs without the expansion. English questions only: the table is English.
     */
    async prepare(query: string): Promise<void> {
      if (hyponyms === null && currentConfig().hyponyms && /[a-z]{3}/iu.test(query)) {
        const table = await loadHyponyms();
        if (table.size > 0) hyponyms = table; // an empty table is a failed load: the next question tries again
      }
    },
    recall(input: RecallInput): RecallResponse {
      const t0 = performance.now();
      const cfg = retrievalConfig(env.retrieval);
      const now = env.clock.now();
      const symbols = querySymbols(input.query);
      const keywords = extractKeywords(input.query);
      const times = cfg.timeAware ? resolveTimeExpressions(input.query, { now }) : [];
      const ranges = times.map((t) => ({ start: t.start, end: t.end }));
      const recentCue = recencyCue(input.query);

      // Who the question is about: a named participant, else the role the pronouns point at.
      let cued: ((t: TurnFacts) => boolean | null) | null = null;
      let speaker: RecallQueryInfo['speaker'] = null;
      let textKeywords = keywords;
      if (cfg.speakerCue) {
        // Named participants decide in the conversations where their names resolve; elsewhere the pronouns do.
        const names = resolveNames(nameCandidates(input.query));
        const role = roleCue(input.query);
        if (names.resolved.length > 0 || role) {
          // A conversation where the name shows no role and no pronoun points anywhere: unknown (null), not "no".
          cued = (t) => names.roles.get(t.sessionId)?.has(t.role) ?? (role === null ? null : t.role === role);
          speaker = { kind: names.resolved.length > 0 ? 'named' : 'role', names: names.resolved, role };
          const drop = new Set(names.resolved.map((n) => n.toLowerCase()));
          textKeywords = keywords.filter((k) => !drop.has(k.toLowerCase()));
        }
      }

      // The question's time is matched as time (temporal fit), not as text.
      textKeywords = withoutTimeWords(textKeywords, times.map((t) => t.expression));
      // A category the question gathers over is searched by its kinds too (WordNet hyponyms, categories.ts).
      const categories = cfg.hyponyms && hyponyms ? categoryExpansions(textKeywords, input.query, hyponyms) : [];
      const terms = selectTerms([...textKeywords, ...symbols], { index, config: cfg, categories });
      const ftsRanks = sumRanks(terms.lanes.map((lane) => scaled(index.ranked(lane.match, { limit: cfg.candidates, from: lane.from }), lane.weight)));
      const symbolHits = index.symbolHits(symbols, SYMBOL_HITS);
      const timeLane = new Set(ranges.flatMap((r) => index.inRange(r, TIME_LANE)));
      // Candidates and the turns around the best of them (a turn found only there is scored by what it borrows).
      const around = cfg.neighbours ? bestOf(ftsRanks, NEIGHBOURED) : [];
      const facts = index.facts(new Set([...ftsRanks.keys(), ...symbolHits.keys(), ...timeLane]), around, cfg.contextWindow ? cfg.farAround : 0);

      // The current conversation's last turns are in the context already.
      const excludeFrom = input.currentSessionId ? index.recentFrom(input.currentSessionId, input.recentTurns) : 0;
      for (const [id, f] of facts) if (f.sessionId === input.currentSessionId && f.turnNo > excludeFrom) facts.delete(id);

      // A pronoun cue ("I", "you said") in a chat with an assistant: facts about a side are in what that side wrote.
      const cueBoost = speaker?.kind === 'role' ? cfg.roleBoost : cfg.speakerBoost;
      const stage = { facts, ftsRanks, symbolHits, querySymbols: symbols, timeLane, cued, cueBoost, now, ranges, recentCue, config: cfg };
      const evidence = scoreTurns(stage);
      const read = textReader();
      const top = headSize(input.limit);
      let ranked = rankScored(evidence, { top });
      const gathering = gathers(input.query);
      if (cfg.rerank) {
        let refined = refine(ranked, facts, { terms: terms.weighted, query: input.query, read });
        // A gathering question: each conversation's first statement of the question's words introduces its fact.
        if (cfg.firstMention && gathering) refined = withFirstStatements(ranked, facts, refined, cfg.firstMentionWeight);
        ranked = rankScored(evidence, { top, refined });
      }
      if (cfg.conversationSpread && gathering) {
        ranked = spreadAcrossConversations(ranked, (id) => facts.get(id)?.sessionId, { free: cfg.spreadFree, factor: cfg.spreadFactor });
      }
      const results = select(ranked, facts, input, read, categories, terms.kinds);
      return {
        results,
        totalSearched: index.totalSearched(),
        latencyMs: performance.now() - t0,
        query: {
          keywords,
          symbols,
          terms: terms.kept,
          pruned: terms.pruned,
          windowed: terms.windowed,
          categories: categories.map((c) => ({ category: c.category, kinds: c.kinds.filter((k) => terms.kinds.includes(k)) })).filter((c) => c.kinds.length > 0),
          times: times.map((t) => ({ expression: t.expression, start: t.start, end: t.end })),
          recency: recencyBasis({ ranges, recentCue, timeAware: cfg.timeAware }),
          speaker,
        },
      };
    }
  };
}

export type RecallService = ReturnType<typeof createRecallService>;
