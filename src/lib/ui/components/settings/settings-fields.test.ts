import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, settingsPatchSchema, settingsSchema, type SettingKey } from '../../../domain/settings';
import { changedPatch, SETTINGS_GROUPS, settingField, suggestedEvictionThreshold, toDraft } from './settings-fields';

const ALL_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

describe('SETTINGS_GROUPS', () => {
  it('shows every engine setting exactly once', () => {
    const shown = SETTINGS_GROUPS.flatMap((g) => g.keys);
    expect([...shown].sort()).toEqual([...ALL_KEYS].sort());
    expect(new Set(shown).size).toBe(shown.length);
  });
});

describe('settingField', () => {
  it.each(ALL_KEYS)('%s: the form accepts its bounds and the engine does too', (key) => {
    const field = settingField(key);
    const accepts = (value: unknown) => settingsPatchSchema.safeParse({ [key]: value }).success;
    if (field.kind === 'boolean') {
      expect(accepts(true) && accepts(false)).toBe(true);
      return;
    }
    expect(accepts(field.min)).toBe(true);
    expect(accepts(field.min - 1)).toBe(false);
    if (field.max !== null) {
      expect(accepts(field.max)).toBe(true);
      expect(accepts(field.max + 1)).toBe(false);
    }
    expect(accepts(null)).toBe(field.nullable);
  });

  it.each([
    { key: 'memory.rag_top_n' as const, want: { kind: 'integer', min: 0, max: 50, nullable: false } },
    { key: 'MEMORY_EVICTION_THRESHOLD' as const, want: { kind: 'integer', min: 10, max: null, nullable: true } },
    { key: 'memory.enable_user_profile' as const, want: { kind: 'boolean' } },
  ])('$key is shown as $want.kind', ({ key, want }) => {
    expect(settingField(key)).toEqual({ key, ...want });
  });
});

describe('changedPatch', () => {
  it('is empty when nothing changed', () => {
    expect(changedPatch(DEFAULT_SETTINGS, toDraft(DEFAULT_SETTINGS))).toEqual({});
  });

  it.each([
    { edit: { 'memory.rag_top_n': 9 }, want: { 'memory.rag_top_n': 9 } },
    { edit: { MEMORY_EVICTION_THRESHOLD: 500 }, want: { MEMORY_EVICTION_THRESHOLD: 500 } },
    { edit: { 'memory.enable_user_profile': false }, want: { 'memory.enable_user_profile': false } },
    // A cleared number is sent as it is, so the engine names the field that needs a value.
    { edit: { 'chat.context_limit': null }, want: { 'chat.context_limit': null } },
  ])('sends only $edit', ({ edit, want }) => {
    expect(changedPatch(DEFAULT_SETTINGS, { ...toDraft(DEFAULT_SETTINGS), ...edit })).toEqual(want);
  });

  it('switching eviction off sends null', () => {
    const base = { ...DEFAULT_SETTINGS, MEMORY_EVICTION_THRESHOLD: 200 };
    expect(changedPatch(base, { ...toDraft(base), MEMORY_EVICTION_THRESHOLD: null })).toEqual({ MEMORY_EVICTION_THRESHOLD: null });
  });
});

describe('suggestedEvictionThreshold', () => {
  it('is a value the engine accepts', () => {
    expect(settingsPatchSchema.safeParse({ MEMORY_EVICTION_THRESHOLD: suggestedEvictionThreshold() }).success).toBe(true);
  });
});
