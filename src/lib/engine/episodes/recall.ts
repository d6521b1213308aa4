/**
 * 003 "情景记忆召回": episodes for a passage by scene type + text similarity ("场景类型 + 语义相似度混合召回"),
 * each with its score explained term by term:
 *
 *   score = 0.45 · same scene type + 0.35 · similarity + 0.10 · recency + 0.10 · importance
 *   similarity  bm25 over the episode's passage and kept text (up to 12 whole words + 12 CJK pairs of the query), scaled to the best hit
 *   recency     2^(−age / 30 days)
 *
 * Candidates: the best full-text hits among the newest matches (store/episode-recall-query.ts says why the ranked
 * set is bounded) and the newest episodes of the scene type (the "time + scene type" lane,
 * which is also what remains when the text index fails — 003's degradation, `degraded: true`). Compressed
 * episodes are not recalled (003 "待压缩：不再参与召回"), and the decay tiers apply (domain/lifecycle/decay.ts):
 * the score is multiplied by 1 (active), the decay score (decaying) or 0 (below 0.3: left out). The best 3–5 are returned (003 "最相关的 3-5 条").
 * Every candidate is scored; the why (its terms, the matched words) is written for the winners only.
 * An embedding provider (the retrieval issue) would add its similarity here; without one, similarity is lexical.
 */
import { DAY_MS, type Clock } from '../../domain/clock';
import { decayScore, decayTier, recallWeight } from '../../domain/lifecycle/decay';
import type { SceneType } from '../../domain/episodes/scene-type';
import type { Logger } from '../../domain/log';
import { buildMatchQuery } from '../../domain/text/fts-query';
import { gramsMatchQuery, queryBigrams } from '../../domain/text/grams';
import { extractKeywords, isStopWord } from '../../domain/text/keywords';
import { keptText, type EpisodeRepo } from '../store/episode-repo';
import { RANK_WINDOW, type EpisodeScoreRow } from '../store/episode-recall-query';
import { projectNotFound } from '../store/project-repo';
import type { EpisodeQueryResult, RecalledEpisode } from './types';

export const RECALL_WEIGHTS = { scene: 0.45, similarity: 0.35, recency: 0.1, importance: 0.1 } as const;
export const RECALL_HALF_LIFE_MS = 30 * DAY_MS;
/** 003: "返回最相关的 3-5 条". */
export const RECALL_MIN = 3;
export const RECALL_MAX = 5;
/** Below this an episode shares neither the scene type nor enough words to be worth the tokens. */
export const RECALL_MIN_SCORE = 0.25;
const CANDIDATES = 60;

export interface RecallQuery {
  /** A project's episodes; null: those of no project; undefined: every episode. */
  projectId?: string | null;
  sceneType?: SceneType;
  text: string;
  limit?: number;
  /** Leave out the episode of this run (the run being built has none yet; a re-query may). */
  excludeRunId?: string;
  /**
   * episode.query's check: a named project that does not exist is NOT_FOUND, blamed on this field. Read in the same
   * statement as the walk plan (EpisodeRecallQuery.scope). Absent: not checked (a context build's project is).
   */
  projectField?: string;
}

/**
 * At most this many words and this many CJK pairs per query. Profiled at 10,000 episodes (issue 17): bm25's cost
 * grows with the terms (it gathers each term's statistics over the whole index and scores each match per term);
 * 12 instead of 24 halved episode.query's p95 in the ranking step, and the words keep their order of strength
 * (extractKeywords), so the ones dropped are the weakest.
 */
export const RECALL_QUERY_TERMS = 12;

/** The FTS5 MATCH episode recall asks for a passage (exported for bench/speed/episode-rank-probe.ts). */
export function recallMatch(text: string): { match: string | null; keywords: string[] } {
  const keywords = extractKeywords(text, { max: RECALL_QUERY_TERMS });
  // Whole words, no prefix: FTS5's porter stemmer already meets inflections on both sides, and a prefix term makes
  // FTS5 merge the lists of every word it starts (payment, payments, payload …) before ranking.
  const words = buildMatchQuery(keywords, { column: 'body', prefix: false });
  const grams = gramsMatchQuery(queryBigrams(text, { max: RECALL_QUERY_TERMS, stop: (g) => [...g].every((c) => isStopWord(c)) }));
  const parts = [words, grams].filter((p): p is string => p !== null);
  return { match: parts.length ? parts.map((p) => `(${p})`).join(' OR ') : null, keywords };
}

/** A candidate as ranking needs it; its why is written only if it wins. */
interface Scored {
  row: EpisodeScoreRow;
  score: number;
  similarity: number;
  decay: number;
}

export function recallEpisodes(deps: { episodes: EpisodeRepo; clock: Clock; log: Logger }, q: RecallQuery): EpisodeQueryResult {
  const limit = Math.min(RECALL_MAX, Math.max(1, q.limit ?? RECALL_MAX));
  const { match, keywords } = recallMatch(q.text);
  // Checked: the plan comes with the check. Otherwise ranked reads the plan itself, inside the degradation's try.
  const scope = q.projectField !== undefined && q.projectId ? deps.episodes.recall.scope(q.projectId) : undefined;
  if (scope && !scope.known) throw projectNotFound(q.projectField as string);
  const bm25 = new Map<string, number>();
  const pool = new Map<string, EpisodeScoreRow>();
  let degraded = false;
  if (match) {
    try {
      for (const hit of deps.episodes.recall.ranked(match, q.projectId, CANDIDATES, RANK_WINDOW, scope?.plan)) {
        bm25.set(hit.row.id, -hit.rank);
        pool.set(hit.row.id, hit.row);
      }
    } catch {
      // 003 "向量索引不可用 → 回退到时间 + 场景类型精确匹配": the scene lane still answers.
      degraded = true;
      deps.log.warn('episodes.recall-degraded', { reason: 'fts' });
    }
  }
  if (q.sceneType) for (const e of deps.episodes.recall.recentOfScene(q.projectId, q.sceneType, CANDIDATES)) pool.set(e.id, e);
  const best = Math.max(0, ...bm25.values());
  const now = deps.clock.now();
  // Each candidate keeps its score (rounded as the why shows it: the order and the cut-off are the rounded score's)
  // and the two figures that cost a computation; the why itself is written for the 3–5 winners only.
  const scored: Scored[] = [];
  for (const e of pool.values()) {
    if (e.runId !== null && e.runId === q.excludeRunId) continue;
    const sceneMatch = q.sceneType !== undefined && e.sceneType === q.sceneType;
    const similarity = best > 0 ? Math.round(((bm25.get(e.id) ?? 0) / best) * 1000) / 1000 : 0;
    const recency = 2 ** (-Math.max(0, now - e.createdAt) / RECALL_HALF_LIFE_MS);
    // 003 衰减分级: active counts fully, decaying by its score ("降低召回优先级"), below 0.3 not at all.
    const decay = decayScore({ createdAt: e.createdAt, lastRecalledAt: e.lastRecalledAt, recallCount: e.recallCount, importance: e.importance, exempt: e.pinned }, now);
    const weight = recallWeight(decayTier(decay), decay);
    if (weight === 0) continue;
    const score =
      weight *
      (RECALL_WEIGHTS.scene * (sceneMatch ? 1 : 0) + RECALL_WEIGHTS.similarity * similarity + RECALL_WEIGHTS.recency * recency + RECALL_WEIGHTS.importance * e.importance);
    scored.push({ row: e, score: Math.round(score * 1000) / 1000, similarity, decay });
  }
  scored.sort((a, b) => b.score - a.score || b.row.createdAt - a.row.createdAt || (a.row.id < b.row.id ? -1 : 1));
  const winners = scored.filter((s) => s.score >= RECALL_MIN_SCORE).slice(0, limit);
  // Only the 3–5 winners are read whole (their text for the context and the matched terms).
  const whole = new Map(deps.episodes.getMany(winners.map((w) => w.row.id)).map((e) => [e.id, e]));
  const items: RecalledEpisode[] = [];
  for (const w of winners) {
    const episode = whole.get(w.row.id);
    if (!episode) continue;
    const hay = `${episode.inputContext}\n${keptText(episode)}`.toLowerCase();
    const why: RecalledEpisode['why'] = {
      sceneMatch: q.sceneType !== undefined && w.row.sceneType === q.sceneType,
      similarity: w.similarity,
      ageDays: Math.round((Math.max(0, now - w.row.createdAt) / DAY_MS) * 10) / 10,
      importance: w.row.importance,
      decay: Math.round(w.decay * 1000) / 1000,
      score: w.score,
      matchedTerms: keywords.filter((k) => hay.includes(k.toLowerCase())).slice(0, 8),
    };
    items.push({ episode, why });
  }
  return { items, degraded };
}
