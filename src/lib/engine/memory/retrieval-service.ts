import type { Logger } from '../../domain/log';
import {
  isPreferenceQuery,
  likeKeywordScore,
  normaliseBm25,
  rankScored,
  scoreMemory,
  type MemoryRecord,
} from '../../domain/memory';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { extractKeywords } from '../../domain/text/keywords';
import { hasCjk } from '../../domain/text/segment';
import type { Clock } from '../../domain/clock';
import type { WorkingMemoryRegistry } from '../conversation/working-memory-registry';
import { likeHaystack, type CandidateScope, type MemoryQuery } from '../store/memory-query';
import type { SettingsRepo } from '../store/settings-repo';
import type { RetrievalResult, RetrievalVia } from './types';

/** How many full-text candidates are scored (the top N comes out of these). */
const FTS_CANDIDATES = 200;
/** How many preference memories a preference question adds as candidates. */
const PREFERENCE_LANE = 20;
const MAX_QUERY_KEYWORDS = 16;
const MAX_TOPIC_KEYWORDS = 6;

export interface RetrieveInput {
  query: string;
  /** Absent: memory.rag_top_n for the context, MEMORY_RETRIEVAL_LIMIT otherwise (both read per call). */
  topN?: number;
  sessionId?: string;
  projectId?: string | null;
  purpose?: 'context' | 'api';
}

type Candidate = { memory: MemoryRecord; keywordScore: number; via: RetrievalVia };

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
  clock: Clock;
  log: Logger;
}) {
  function keywordCandidates(terms: readonly string[], scope: CandidateScope): { found: Candidate[]; ftsFailed: boolean } {
    const match = buildMatchQuery(terms);
    if (!match) return { found: [], ftsFailed: false };
    let ftsFailed = false;
    try {
      const rows = deps.query.ftsCandidates(match, scope, FTS_CANDIDATES);
      const scores = normaliseBm25(rows.map((r) => r.rank));
      const found = rows.map((r, i): Candidate => ({ memory: r.memory, keywordScore: scores[i] ?? 0, via: 'fts' }));
      if (found.length > 0 || !terms.some(isShortCjk)) return { found, ftsFailed };
    } catch (err) {
      // The index is missing or damaged: LIKE stands in. Only the error class is logged (the SQL holds user words).
      ftsFailed = true;
      deps.log.warn('memory.fts-failed', { stage: 'retrieve', cause: err instanceof Error ? err.name : 'unknown' });
    }
    const like = deps.query.likeCandidates(terms, scope, FTS_CANDIDATES);
    return { found: like.map((m) => ({ memory: m, keywordScore: likeKeywordScore(likeHaystack(m), terms), via: 'like' })), ftsFailed };
  }

  return {
    retrieve(input: RetrieveInput): RetrievalResult {
      const cfg = deps.settings.get();
      const topN = input.topN ?? (input.purpose === 'context' ? cfg['memory.rag_top_n'] : cfg.MEMORY_RETRIEVAL_LIMIT);
      const keywords = extractKeywords(input.query, { max: MAX_QUERY_KEYWORDS });
      const topic = (input.sessionId ? deps.workingMemory.peek(input.sessionId)?.currentTopic : null) ?? null;
      const topicKeywords = topic ? extractKeywords(topic, { max: MAX_TOPIC_KEYWORDS }) : [];
      const preferenceQuery = isPreferenceQuery(input.query);
      const base = { keywords, topic, topicKeywords, preferenceQuery, topN };
      if (topN === 0) return { ...base, items: [], ftsFailed: false };

      const scope: CandidateScope = { projectId: input.projectId ?? null };
      // 001 "Working memory context boost": the topic's keywords join the search condition.
      const terms = [...new Map([...keywords, ...topicKeywords].map((k) => [k.toLowerCase(), k])).values()];
      const { found, ftsFailed } = keywordCandidates(terms, scope);
      const candidates = new Map(found.map((c) => [c.memory.id, c]));
      if (preferenceQuery) {
        for (const m of deps.query.preferenceLane(scope, PREFERENCE_LANE)) {
          if (!candidates.has(m.id)) candidates.set(m.id, { memory: m, keywordScore: 0, via: 'category' });
        }
      }

      const now = deps.clock.now();
      const all = [...candidates.values()];
      const maxAccessCount = Math.max(0, ...all.map((c) => c.memory.accessCount));
      const scored = all.map((c) => ({
        memory: c.memory,
        via: c.via,
        explanation: scoreMemory({ keywordScore: c.keywordScore, memory: c.memory, now, preferenceQuery, topicKeywords, maxAccessCount }),
      }));
      const items = rankScored(scored, topN).map((s) => ({ memory: s.memory, score: s.explanation, via: s.via }));
      return { ...base, items, ftsFailed };
    },
  };
}

export type RetrievalService = ReturnType<typeof createRetrievalService>;
