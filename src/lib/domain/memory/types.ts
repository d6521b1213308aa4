/**
 * Long-term memory types (seed 000 "原子记忆", seed 001 "Long-term Memory Storage").
 * Pure data: the engine stores these rows in `memories` and every change in `memory_history`.
 */

export type MemoryCategory = 'preference' | 'fact' | 'pattern';
export type MemorySource = 'user_stated' | 'inferred' | 'system';

export const MEMORY_CATEGORIES = ['preference', 'fact', 'pattern'] as const satisfies readonly MemoryCategory[];
export const MEMORY_SOURCES = ['user_stated', 'inferred', 'system'] as const satisfies readonly MemorySource[];

export interface MemoryRecord {
  id: string;
  scope: 'global' | 'project';
  projectId: string | null;
  sessionId: string | null;
  messageId: number | null;
  category: MemoryCategory;
  /** Stable, language-independent key (see keys.ts), e.g. `fact.name`, `preference.food.coffee`. */
  key: string;
  /** JSON value; its shape per key family is documented in keys.ts. */
  value: unknown;
  /** What the user said, in the user's language, cut to `memory.atomic_content_max_length`. */
  content: string;
  tags: string[];
  confidence: number;
  source: MemorySource;
  importance: number;
  status: 'active' | 'superseded';
  supersededBy: string | null;
  language: string | null;
  createdAt: number;
  updatedAt: number;
  lastAccessed: number | null;
  accessCount: number;
  version: number;
}

/** A section of the user profile document (seed 000 "用户画像": reply style, language habits, background). */
export type ProfileSection = 'reply_style' | 'language' | 'background';

export interface ProfileHint {
  section: ProfileSection;
  /** One line of the profile, in the user's language (e.g. `称呼：小明`, `Answer length: concise`). */
  text: string;
  /**
   * The memory key the line stands for. Lines for the same key contradict each other, so a new hint
   * replaces the old line. Without it the slot is recognised from the line's label (profile-slots.ts).
   */
  key?: string;
  /** Remove the line for this key instead of writing one (e.g. "I no longer work at Acme"). */
  remove?: boolean;
}

/** Something worth remembering, before it is reconciled with what is already stored. */
export interface MemoryCandidate {
  category: MemoryCategory;
  key: string;
  /** `null` only for a retraction that states nothing new ("我已经不在腾讯工作了"). */
  value: unknown;
  content: string;
  confidence: number;
  source: MemorySource;
  tags: string[];
  language: 'zh' | 'en' | string;
  polarity?: 'positive' | 'negative';
  /** e.g. retract: "I no longer like X" */
  retracts?: boolean;
  profile?: ProfileHint[];
}

/**
 * What to do with a candidate, as data (house style: expected outcomes are values).
 *  - add:       store it as a new memory.
 *  - noop:      nothing changes; `duplicate` = already known, `weaker` = an inference never overrides
 *               what the user said.
 *  - update:    patch the target in place (version + 1, old value kept in memory_history).
 *  - supersede: store the candidate as a new memory and mark the target `superseded` (supersededBy = new id).
 *  - delete:    the user withdrew the fact and stated nothing new; the engine removes the target
 *               (keeping its history).
 *  - ignore:    a retraction of something never stored; nothing to do. (Added: `noop` needs a target.)
 */
export type ReconcileDecision =
  | { kind: 'add' }
  | { kind: 'noop'; targetId: string; reason: 'duplicate' | 'weaker' }
  | { kind: 'update'; targetId: string; patch: Partial<Pick<MemoryRecord, 'value' | 'content' | 'confidence' | 'tags'>> }
  | { kind: 'supersede'; targetId: string }
  | { kind: 'delete'; targetId: string }
  | { kind: 'ignore'; reason: 'nothing-to-retract' };
