import { DAY_MS } from '../clock';

/**
 * The one config module for memory ranking (seed 001 "Relevance score calculation", ARCHITECTURE §5).
 *
 *   base  = keyword_score·0.4 + category_boost·0.2 + recency_score·0.15 + frequency_score·0.1 + confidence·0.15
 *   score = base × topic_multiplier
 *
 * How the ×1.5 preference boost (001 "Category-based candidate recall") meets the 0.2 weight: the boost
 * multiplies `category_boost`, the term itself, never the whole score. Every memory starts from
 * category_boost = 1/1.5 (CATEGORY_BOOST_BASE); a `preference` memory, when the message is about
 * preferences, gets 1/1.5 × 1.5 = 1. So the boost is exactly 1.5×, every term stays in 0..1, and `base`
 * stays in 0..1. Outside preference queries the category term is the same for all memories and does not
 * change the ranking.
 *
 * The ×1.3 topic boost (001 "Working memory context boost": "对与当前主题相关的记忆应用 1.3x 的额外加成")
 * is an extra on top of everything, so it multiplies the whole base score: a topic-related memory ranks
 * 30 % higher. Scores therefore lie in 0..1.3.
 */
export const MEMORY_SCORE_WEIGHTS = {
  keyword: 0.4,
  category: 0.2,
  recency: 0.15,
  frequency: 0.1,
  confidence: 0.15,
  /** 001: recency_score halves every 7 days since last_accessed (created_at when never accessed). */
  recencyHalfLifeMs: 7 * DAY_MS,
  /** 001: ×1.5 category_boost for `preference` memories when the message expresses a preference. */
  preferenceBoost: 1.5,
  /** 001: ×1.3 for memories related to the working memory's current_topic. */
  topicBoost: 1.3,
} as const;

/** category_boost before any boost, chosen so the boosted term is exactly 1 (see above). */
export const CATEGORY_BOOST_BASE = 1 / MEMORY_SCORE_WEIGHTS.preferenceBoost;

/** The largest score a memory can get: a perfect base score with the topic boost. */
export const MAX_MEMORY_SCORE = MEMORY_SCORE_WEIGHTS.topicBoost;
