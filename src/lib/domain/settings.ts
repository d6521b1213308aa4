import { z } from 'zod';

/**
 * Engine settings (seed 000 "记忆可配置", seed 001 MEMORY_*), one schema with the defaults derived
 * from it, so the two cannot drift. A change applies to the next request.
 */
export const settingsSchema = z.strictObject({
  /** 000: topN of the passive RAG that fills context layer L4. */
  'memory.rag_top_n': z.number().int().min(0).max(50).default(5),
  /** 000: offer the model a search_memories(keyword, timeRange) tool. */
  'memory.enable_agentic_search': z.boolean().default(false),
  /** 000: load the user profile into context layer L1 on every request. */
  'memory.enable_user_profile': z.boolean().default(true),
  /** 000: an atomic memory's content is cut to this many characters. */
  'memory.atomic_content_max_length': z.number().int().min(40).max(4000).default(400),
  /** 000: how many recent session summaries go into L4. */
  'memory.session_summary_limit': z.number().int().min(0).max(50).default(3),
  /** 001: the most memories one retrieval returns when the caller names no topN. */
  MEMORY_RETRIEVAL_LIMIT: z.number().int().min(1).max(100).default(5),
  /** 001: optional eviction once there are more active memories than this (null = never). */
  MEMORY_EVICTION_THRESHOLD: z.number().int().min(10).nullable().default(null),
  /** 000: the rolling window holds at most this many messages (plus the system message). */
  'chat.context_limit': z.number().int().min(2).max(400).default(20),
  /** 002: a session's turns are summarised in blocks of this size once it passes summary_after turns. */
  'chat.summary_block': z.number().int().min(2).max(50).default(5),
  'chat.summary_after': z.number().int().min(2).max(200).default(10),
  /** 002: recall and context keep this many recent turns in full. */
  'chat.recent_full_turns': z.number().int().min(1).max(50).default(5),
  /**
   * 004 "用户可见/可控（可删除/关闭）": put the writing preferences (L2) into every run. Off, L2 keeps its
   * heading and fixed empty placeholder (masked, not deleted: the prefix structure stays the same).
   */
  'preferences.inject': z.boolean().default(true),
  /** 004/003: accept/reject/partial feedback updates the learned preferences. Off, events are still recorded. */
  'preferences.learning': z.boolean().default(true),
});

export type Settings = z.output<typeof settingsSchema>;
export type SettingKey = keyof Settings;

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

type Shape = typeof settingsSchema.shape;

/** A patch names only known keys with valid values; absent keys stay as they are (no defaults). */
export const settingsPatchSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(settingsSchema.shape).map(([key, field]) => [key, field.def.innerType.optional()]),
  ) as { [K in keyof Shape]: z.ZodOptional<Shape[K]['def']['innerType']> },
);
export type SettingsPatch = z.output<typeof settingsPatchSchema>;
