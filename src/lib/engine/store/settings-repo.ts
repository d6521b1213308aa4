import { settingsSchema, type Settings, type SettingsPatch } from '../../domain/settings';
import type { EngineEnv } from '../env';

export interface SettingsRepo {
  get(): Settings;
  update(patch: SettingsPatch): Settings;
}

/** Settings are rows of (key, JSON value); unknown or stale keys in the table are ignored on read. */
export function createSettingsRepo({ driver, clock }: Pick<EngineEnv, 'driver' | 'clock'>): SettingsRepo {
  const get = (): Settings => {
    const stored: Record<string, unknown> = {};
    for (const row of driver.all<{ key: string; value: string }>('SELECT key, value FROM settings')) {
      if (row.key in settingsSchema.shape) stored[row.key] = JSON.parse(row.value);
    }
    const parsed = settingsSchema.safeParse(stored);
    // A stored value that no longer validates (an older app's range) falls back to the defaults.
    return parsed.success ? parsed.data : settingsSchema.parse({});
  };
  return {
    get,
    update(patch) {
      const now = clock.now();
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        driver.run(
          'INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
          [key, JSON.stringify(value), now],
        );
      }
      return get();
    },
  };
}
