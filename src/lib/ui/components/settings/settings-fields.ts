import { z } from 'zod';
import { settingsSchema, type SettingKey, type Settings, type SettingsPatch } from '../../../domain/settings';

/**
 * How the memory settings form shows the engine's settings. Kinds, bounds and defaults are read from
 * `settingsSchema` itself, so the form cannot drift from what the engine accepts; only the grouping
 * and wording live here.
 */
export type SettingsGroupId = 'retrieval' | 'context' | 'summaries' | 'storage' | 'preferences';

export const SETTINGS_GROUPS: readonly { id: SettingsGroupId; keys: readonly SettingKey[] }[] = [
  { id: 'retrieval', keys: ['memory.rag_top_n', 'MEMORY_RETRIEVAL_LIMIT', 'memory.enable_agentic_search'] },
  {
    id: 'context',
    keys: ['memory.enable_user_profile', 'memory.session_summary_limit', 'chat.context_limit', 'chat.recent_full_turns'],
  },
  { id: 'summaries', keys: ['chat.summary_after', 'chat.summary_block'] },
  { id: 'storage', keys: ['memory.atomic_content_max_length', 'MEMORY_EVICTION_THRESHOLD'] },
  { id: 'preferences', keys: ['preferences.inject', 'preferences.learning'] },
];

export type SettingField =
  | { key: SettingKey; kind: 'boolean' }
  | { key: SettingKey; kind: 'integer'; min: number; max: number | null; nullable: boolean };

export function settingField(key: SettingKey): SettingField {
  let schema: z.ZodType = settingsSchema.shape[key].def.innerType;
  let nullable = false;
  if (schema instanceof z.ZodNullable) {
    nullable = true;
    schema = schema.unwrap() as z.ZodType;
  }
  if (schema instanceof z.ZodBoolean) return { key, kind: 'boolean' };
  if (schema instanceof z.ZodNumber) {
    // `.int()` alone bounds at ±MAX_SAFE_INTEGER: that is "no maximum" to a person.
    const max = schema.maxValue !== null && schema.maxValue < Number.MAX_SAFE_INTEGER ? schema.maxValue : null;
    return { key, kind: 'integer', min: schema.minValue ?? 0, max, nullable };
  }
  throw new Error(`settings form: no input for the kind of ${key}`);
}

/** What the form edits: numbers may be blank (null) while typing, which the engine then rejects by field. */
export type SettingsDraft = Record<SettingKey, number | boolean | null>;

export function toDraft(settings: Settings): SettingsDraft {
  return { ...settings };
}

/** Only the keys the person changed, so a save never overwrites a value another window set meanwhile. */
export function changedPatch(base: Settings, draft: SettingsDraft): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(settingsSchema.shape) as SettingKey[]) {
    if (!Object.is(draft[key], base[key])) patch[key] = draft[key];
  }
  return patch as SettingsPatch;
}

/**
 * Eviction needs a threshold when it is switched on: offer one well above the minimum, since evicting
 * right at the minimum would throw away most of a young memory.
 */
export function suggestedEvictionThreshold(): number {
  const field = settingField('MEMORY_EVICTION_THRESHOLD');
  return field.kind === 'integer' ? Math.max(field.min, 1000) : 1000;
}
