import type { Logger } from '../../domain/log';
import {
  isPreferenceQuery,
  likeKeywordScore,
  normaliseBm25,
  rankScored,
  relatesToTopic,
  scoreMemory,
  type MemoryRecord,
} from '../../domain/memory';
import { focusedTopicKeywords } from '../../domain/memory/score-topic';
import { dialogueWeight, fuseKeywordScores, fuseWithMeaning, weighByStrength, type KeywordPart } from '../../domain/memory/keyword-fusion';
import { retrievalConfig, type RetrievalConfig } from '../../domain/recall/config';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { gramsMatchQuery, queryBigrams } from '../../domain/text/grams';
import { extractKeywords, isStopWord } from '../../domain/text/keywords';
import { hasCjk } from '../../domain/text/segment';
import type { Clock } from '../../domain/clock';
import type { WorkingMemoryRegistry } from '../conversation/working-memory-registry';
import { likeHaystack, type CandidateScope, type MemoryQuery } from '../store/memory-query';
import type { SettingsRepo } from '../store/settings-repo';
import type { SemanticService } from '../embeddings/semantic-service';
import type { RetrievalResult, RetrievalVia } from './types';

/** A pair made only of stop characters (我们, 什么, 了吗) matches everything and says nothing. */
const stopGram = (g: string) => isStopWord(g) || [...g].every((c) => isStopWord(c));

export interface RetrieveInput {
  query: string;
  /** Absent: memory.rag_top_n for the context, MEMORY_RETRIEVAL_LIMIT otherwise (both read per call). */
  topN?: number;
  sessionId?: string;
  projectId?: string | null;
  purpose?: 'context' | 'api';
}

/** The message, its keywords, the search terms (keywords and the topic's words) and the chat. */
type KeywordInput = { query: string; keywords: readonly string[]; terms: readonly string[]; sessionId?: string };

type Candidate = { memory: MemoryRecord; keywordScore: number; via: RetrievalVia; parts?: Partial<Record<string, number>> };

/** A 1–2 character CJK term may be missed by the word index (TECH-NOTES "Chinese full-text search"). */
const isShortCjk = (term: string) => hasCjk(term) && Array.from(term).length <= 2;

/**
 * Seed 001 "Memory Retrieval Algorithm" (000 MemoryService.GetRelevantMemories):
 *
 *   1 keywords  extractKeywords(message) (zh/en stop words out) + the working memory's current_topic
 *   2 recall    FTS5 MATCH (prefix terms, bm25 → keyword_score) ─fails─▶ LIKE (matched/total keywords)
 *               + preference memories when the message expresses a preference (category lane)
 *   3 score     scoreMemory: weights, ×1.5 preference boost, ×1.3 topic boost, recency, frequency
 *   4 rank      best first, top N
 *
 * A read: nothing is written. What the context actually uses is recorded with memory.markAccessed.
 */
export function createRetrievalService(deps: {
  query: MemoryQuery;
  settings: SettingsRepo;
  workingMemory: Pick<WorkingMemoryRegistry, 'peek'>;
  /** The conversation's user messages, newest first (for the dialogue view). */
  recentUserTexts?: (sessionId: string, limit: number) => string[];
  /** The conversation's first user message (for memoryOpener), null when it has none. */
  openingUserText?: (sessionId: string) => string | null;
  clock: Clock;
  log: Logger;
  /** The retrieval config (EngineEnv.retrieval with defaults), read per call. */
  config?: () => RetrievalConfig;
  /** Meaning-based recall (issue 18): the message's nearest memories by embedding, fused with keyword_score. */
  semantic?: Pick<SemanticService, 'lane'>;
}) {
  const config = deps.config ?? (() => retrievalConfig());

  /**
   * One lexical view: words (and CJK pairs) of `text` → memory id → bm25 scaled to the view's best, and that best
   * raw bm25 relevance (for memoryViewStrength).
   */
  function view(text: string, extra: readonly string[], scope: CandidateScope, cfg: RetrievalConfig, into: Map<string, MemoryRecord>): { scores: Map<string, number>; best: number } {
    const words = buildMatchQuery([...new Set([...extractKeywords(text, { max: cfg.memoryKeywords }), ...extra])]);
    const grams = cfg.memoryGrams ? gramsMatchQuery(queryBigrams(text, { max: cfg.memoryGramsPerText, stop: stopGram })) : null;
    const match = [words, grams].filter((m): m is string => m !== null).join(' OR ');
    if (!match) return { scores: new Map(), best: 0 };
    const rows = deps.query.ftsCandidates(match, scope, cfg.memoryCandidates);
    const scores = normaliseBm25(rows.map((r) => r.rank));
    const out = new Map<string, number>();
    rows.forEach((r, i) => {
      into.set(r.memory.id, r.memory);
      out.set(r.memory.id, scores[i] ?? 0);
    });
    return { scores: out, best: Math.max(0, ...rows.map((r) => (Number.isFinite(r.rank) ? -r.rank : 0))) };
  }

  /**
   * FTS5 candidates from every view (the message with the topic's words, the user's earlier turns, the opener),
   * fused into 001's keyword_score (domain/memory/keyword-fusion.ts). Throws when FTS5 fails; the caller falls back to LIKE.
   */
  function fusedCandidates(input: KeywordInput, scope: CandidateScope): Candidate[] {
    const cfg = config();
    const memories = new Map<string, MemoryRecord>();
    // 001 "Working memory context boost": the topic's keywords join the search condition.
    let parts: KeywordPart[] = [{ view: 'message', weight: 1, ...view(input.query, input.terms, scope, cfg, memories) }];
    if (cfg.memoryDialogue && input.sessionId && deps.recentUserTexts) {
      const decay = (n: number) => dialogueWeight(n, cfg.dialogueDecay);
      const earlier = deps.recentUserTexts(input.sessionId, cfg.dialogueTurns + 1).filter((t) => t.trim() !== input.query.trim()).slice(0, cfg.dialogueTurns);
      // memoryOpener: the chat's first user turn says what it is about, however long ago it was (openerWeight).
      const opener = cfg.memoryOpener ? deps.openingUserText?.(input.sessionId) : undefined;
      const openerWeight = (text: string, weight: number) => (opener != null && text === opener ? Math.max(weight, decay(1)) : weight);
      earlier.forEach((text, i) => parts.push({ view: 'dialogue', weight: openerWeight(text, decay(i + 1)), ...view(text, [], scope, cfg, memories) }));
      if (opener != null && opener.trim() !== input.query.trim() && !earlier.includes(opener)) {
        parts.push({ view: 'dialogue', weight: decay(1), ...view(opener, [], scope, cfg, memories) });
      }
    }
    // memoryViewStrength: a turn's weight also says how much it shares with any memory at all (keyword-fusion.ts).
    if (cfg.memoryViewStrength) parts = weighByStrength(parts, cfg.strengthPower);
    return [...fuseKeywordScores(parts)].flatMap(([id, f]) => {
      const memory = memories.get(id);
      return memory ? [{ memory, keywordScore: f.keywordScore, via: 'fts' as const, parts: f.parts }] : [];
    });
  }

  /** The lexical candidates and the memories found by meaning, keyword_score fused by rank (keyword-fusion.ts fuseWithMeaning). */
  function withMeaning(lexical: Candidate[], hits: ReadonlyMap<number, number>, scope: CandidateScope, cfg: RetrievalConfig): Candidate[] {
    const byRid = new Map<number, MemoryRecord>();
    for (const m of deps.query.byRids([...hits.keys()], scope)) byRid.set(m.rid, m.memory);
    const cosines = new Map<string, number>();
    const memories = new Map(lexical.map((c) => [c.memory.id, c]));
    for (const [rid, cos] of hits) {
      const m = byRid.get(rid);
      if (!m) continue;
      cosines.set(m.id, cos);
      if (!memories.has(m.id)) memories.set(m.id, { memory: m, keywordScore: 0, via: 'semantic', parts: {} });
    }
    const fused = fuseWithMeaning(new Map(lexical.map((c) => [c.memory.id, c.keywordScore])), cosines, { weight: cfg.semanticWeight, k: cfg.fusionK });
    return [...memories.values()].map((c) => {
      const f = fused.get(c.memory.id);
      return f ? { ...c, keywordScore: f.keywordScore, parts: { ...c.parts, ...f.parts } } : c;
    });
  }

  function keywordCandidates(
    input: KeywordInput,
    scope: CandidateScope,
  ): { found: Candidate[]; ftsFailed: boolean } {
    const { terms } = input;
    let ftsFailed = false;
    try {
      const found = fusedCandidates(input, scope);
      if (found.length > 0 || !terms.some(isShortCjk)) return { found, ftsFailed };
    } catch (err) {
      // The index is missing or damaged: LIKE stands in. Only the error class is logged (the SQL holds user words).
      ftsFailed = true;
      deps.log.warn('memory.fts-failed', { stage: 'retrieve', cause: err instanceof Error ? err.name : 'unknown' });
    }
    if (terms.length === 0) return { found: [], ftsFailed };
    const like = deps.query.likeCandidates(terms, scope, config().memoryCandidates);
    return { found: like.map((m) => ({ memory: m, keywordScore: likeKeywordScore(likeHaystack(m), terms), via: 'like' })), ftsFailed };
  }

  return {
    async retrieve(input: RetrieveInput): Promise<RetrievalResult> {
      const retrieval = config();
      // Read only when the caller did not say (the context passes memory.rag_top_n as it read it for the turn).
      const topN = input.topN ?? (input.purpose === 'context' ? deps.settings.get()['memory.rag_top_n'] : deps.settings.get().MEMORY_RETRIEVAL_LIMIT);
      const keywords = extractKeywords(input.query, { max: retrieval.memoryKeywords });
      const topic = (input.sessionId ? deps.workingMemory.peek(input.sessionId)?.currentTopic : null) ?? null;
      const topicKeywords = topic ? extractKeywords(topic, { max: retrieval.topicKeywords }) : [];
      const preferenceQuery = isPreferenceQuery(input.query);
      const base = { keywords, topic, topicKeywords, preferenceQuery, topN };
      if (topN === 0) return { ...base, items: [], ftsFailed: false };

      const scope: CandidateScope = { projectId: input.projectId ?? null };
      // 001 "Working memory context boost": the topic's keywords join the search condition.
      const terms = [...new Map([...keywords, ...topicKeywords].map((k) => [k.toLowerCase(), k])).values()];
      // Meaning-based recall (issue 18): the message's nearest memories, fused with keyword_score by rank. Asked
      // before the keyword candidates are read, so the question's embedding and the vector search run beside them
      // (the search worker, the endpoint) instead of after them.
      const pendingLane = deps.semantic ? deps.semantic.lane('memory', input.query) : null;
      const lexical = keywordCandidates({ query: input.query, keywords, terms, sessionId: input.sessionId }, scope);
      const { ftsFailed } = lexical;
      const lane = pendingLane ? await pendingLane : null;
      const found = lane && lane.hits.size ? withMeaning(lexical.found, lane.hits, scope, retrieval) : lexical.found;
      const candidates = new Map(found.map((c) => [c.memory.id, c]));
      if (preferenceQuery) {
        for (const m of deps.query.preferenceLane(scope, retrieval.preferenceLane)) {
          if (!candidates.has(m.id)) candidates.set(m.id, { memory: m, keywordScore: 0, via: 'category' });
        }
      }

      const now = deps.clock.now();
      const all = [...candidates.values()];
      // memoryOpenerTopic: the chat's first user message names what the chat is about; its words join the topic's.
      const opener = retrieval.memoryOpenerTopic && input.sessionId ? (deps.openingUserText?.(input.sessionId) ?? null) : null;
      const inTopic = new Set(topicKeywords.map((k) => k.toLowerCase()));
      const openerWords = opener ? extractKeywords(opener, { max: retrieval.memoryKeywords }).filter((w) => !inTopic.has(w.toLowerCase())) : [];
      const topicWords = [...topicKeywords, ...openerWords];
      // 001's topic boost through the topic words that single a few memories out (score-topic.ts).
      const boosting = retrieval.memoryTopicFocus ? focusedTopicKeywords(topicWords, all.map((c) => c.memory), retrieval.topicShare) : topicWords;
      const fromOpener = new Set(openerWords);
      const maxAccessCount = Math.max(0, ...all.map((c) => c.memory.accessCount));
      const scored = all.map((c) => {
        const score = scoreMemory({ keywordScore: c.keywordScore, memory: c.memory, now, preferenceQuery, topicKeywords: boosting, maxAccessCount });
        const held = score.multipliers.topic === 1 ? [] : boosting.filter((w) => relatesToTopic(c.memory, [w])).map((word) => ({ word, opener: fromOpener.has(word) }));
        return { memory: c.memory, via: c.via, explanation: { ...score, keywordParts: c.parts ?? {}, ...(held.length ? { topicWords: held } : {}) } };
      });
      const items = rankScored(scored, topN).map((s) => ({ memory: s.memory, score: s.explanation, via: s.via }));
      return { ...base, items, ftsFailed, ...(lane ? { semantic: lane.info } : {}) };
    },
  };
}

export type RetrievalService = ReturnType<typeof createRetrievalService>;
