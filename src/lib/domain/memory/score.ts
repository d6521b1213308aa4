import type { MemoryRecord } from './types';
import { CATEGORY_BOOST_BASE, MEMORY_SCORE_WEIGHTS as W } from './weights';
import { normaliseText } from './text-norm';

/**
 * Seed 001 "Memory Retrieval Algorithm": the relevance score of one memory, explained term by term so
 * the "why" view can show each part. See weights.ts for how the two boosts combine.
 */

export interface ScoreInput {
  /** 0..1, from normaliseBm25 (FTS5) or likeKeywordScore (LIKE fallback). */
  keywordScore: number;
  memory: Pick<MemoryRecord, 'category' | 'confidence' | 'accessCount' | 'lastAccessed' | 'createdAt' | 'content' | 'key' | 'tags'>;
  now: number;
  /** isPreferenceQuery(message). */
  preferenceQuery: boolean;
  /** Keywords of the working memory's current_topic; empty when there is none. */
  topicKeywords: readonly string[];
  /** The largest access_count among the candidates (the frequency normaliser). */
  maxAccessCount: number;
}

type Terms = { keyword: number; category: number; recency: number; frequency: number; confidence: number };

export type ScoreNote =
  | 'preference-boost'
  | 'topic-boost'
  | 'recency-from-created-at'
  | 'future-timestamp'
  | 'never-accessed'
  | 'no-keyword-match';

export interface ScoreExplanation {
  /** (Σ weighted) × multipliers.topic */
  score: number;
  /** Each factor in 0..1 before weighting (category = category_boost after the preference multiplier). */
  terms: Terms;
  /** terms × weights; their sum is the base score. */
  weighted: Terms;
  multipliers: { preference: number; topic: number };
  /** i18n-free codes the UI translates. */
  notes: ScoreNote[];
  /**
   * Where keyword_score came from (issue 8): each lexical view's weighted share before scaling to the best memory —
   * the message, the user's earlier turns, the conversation's mood (domain/memory/keyword-fusion.ts).
   */
  keywordParts?: Partial<Record<'message' | 'dialogue' | 'semantic', number>>;
  /**
   * The topic words this memory holds, when the topic boost applied: each from the working memory's current_topic
   * or (`opener`) from the chat's first user message (memoryOpenerTopic, issue 8 round 4).
   */
  topicWords?: { word: string; opener: boolean }[];
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export function scoreMemory(input: ScoreInput): ScoreExplanation {
  const { memory, now } = input;
  const notes: ScoreNote[] = [];

  const keyword = clamp01(input.keywordScore);
  if (keyword === 0) notes.push('no-keyword-match');

  const preference = input.preferenceQuery && memory.category === 'preference' ? W.preferenceBoost : 1;
  if (preference !== 1) notes.push('preference-boost');
  const category = clamp01(CATEGORY_BOOST_BASE * preference);

  // 001: time decay from last_accessed with a 7-day half-life; never accessed → from created_at.
  const since = memory.lastAccessed ?? memory.createdAt;
  if (memory.lastAccessed === null) notes.push('recency-from-created-at');
  if (since > now) notes.push('future-timestamp');
  const age = Math.max(0, now - since);
  const recency = clamp01(Math.pow(0.5, age / W.recencyHalfLifeMs));

  // 001: log-normalised access_count: ln(1+n) / ln(1+max), so the most used candidate scores 1.
  const count = Math.max(0, memory.accessCount);
  if (count === 0) notes.push('never-accessed');
  const max = Math.max(count, input.maxAccessCount);
  const frequency = max <= 0 ? 0 : clamp01(Math.log1p(count) / Math.log1p(max));

  const confidence = clamp01(memory.confidence);

  const terms: Terms = { keyword, category, recency, frequency, confidence };
  const weighted: Terms = {
    keyword: keyword * W.keyword,
    category: category * W.category,
    recency: recency * W.recency,
    frequency: frequency * W.frequency,
    confidence: confidence * W.confidence,
  };
  const topic = relatesToTopic(memory, input.topicKeywords) ? W.topicBoost : 1;
  if (topic !== 1) notes.push('topic-boost');
  const base = weighted.keyword + weighted.category + weighted.recency + weighted.frequency + weighted.confidence;
  return { score: base * topic, terms, weighted, multipliers: { preference, topic }, notes };
}

/** A memory relates to the current topic when one of the topic's keywords occurs in its content, key or tags. */
export function relatesToTopic(
  memory: Pick<MemoryRecord, 'content' | 'key' | 'tags'>,
  topicKeywords: readonly string[],
): boolean {
  const words = topicKeywords.map(normaliseText).filter((w) => w !== '');
  if (words.length === 0) return false;
  const haystack = topicHaystack(memory);
  return words.some((w) => haystack.includes(w));
}

/** The normalised text relatesToTopic looks in: content, key (its separators as spaces) and tags. */
export function topicHaystack(memory: Pick<MemoryRecord, 'content' | 'key' | 'tags'>): string {
  return normaliseText([memory.content, memory.key.replace(/[._-]/gu, ' '), ...memory.tags].join(' \u0000 '));
}

const PREFERENCE_ZH = /喜欢|喜爱|偏好|偏爱|爱好|喜好|讨厌|最爱|口味|爱吃|爱喝|习惯|推荐|哪个好|选哪个|适合我/u;
const PREFERENCE_EN =
  /\b(?:i|you|we)\s+(?:really\s+|usually\s+|also\s+)?(?:like|love|hate|prefer|enjoy|dislike)\b|\b(?:prefer\w*|preference\w*|favou?rite\w*|dislike\w*|recommend\w*|taste|suggest\w*)\b|\bwhat (?:should|would) i\b/iu;

/** 001 "Category-based candidate recall": does the message express or ask about a preference (zh/en)? */
export function isPreferenceQuery(query: string): boolean {
  const text = query.normalize('NFKC');
  return PREFERENCE_ZH.test(text) || PREFERENCE_EN.test(text);
}

/**
 * 001 "Keyword matching with SQLite FTS": FTS5 bm25() is negative and lower is better. Each candidate
 * gets its relevance relative to the best one, -rank / -bestRank, so the best match scores 1 and the
 * scale does not depend on corpus size. When no candidate has a usable rank (tiny corpora give ~0, the
 * IDF clamp), FTS still matched them all, so they all get 1. Non-finite ranks score 0.
 */
export function normaliseBm25(ranks: readonly number[]): number[] {
  const relevance = ranks.map((r) => (Number.isFinite(r) ? Math.max(0, -r) : Number.NaN));
  const best = Math.max(0, ...relevance.filter((r) => !Number.isNaN(r)));
  return relevance.map((r) => (Number.isNaN(r) ? 0 : best === 0 ? 1 : clamp01(r / best)));
}

/** 001 "Fallback to LIKE matching": matched keywords / total keywords (distinct, case-insensitive). */
export function likeKeywordScore(text: string, keywords: readonly string[]): number {
  const distinct = [...new Set(keywords.map(normaliseText).filter((k) => k !== ''))];
  if (distinct.length === 0) return 0;
  const haystack = normaliseText(text);
  return distinct.filter((k) => haystack.includes(k)).length / distinct.length;
}

/** Sorts scored candidates best first (ties: more recent first) and keeps `limit` (001 Top-N). */
export function rankScored<T extends { explanation: ScoreExplanation; memory: { createdAt: number } }>(
  scored: readonly T[],
  limit: number,
): T[] {
  return [...scored]
    .sort((a, b) => b.explanation.score - a.explanation.score || b.memory.createdAt - a.memory.createdAt)
    .slice(0, Math.max(0, limit));
}
