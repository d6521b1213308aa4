import type { EngineEnv } from '../env';
import { createSettingsRepo } from '../store/settings-repo';
import type { Handlers } from './index';

export function settingsHandlers(env: EngineEnv): Handlers<'settings.get' | 'settings.update'> {
  const repo = createSettingsRepo(env);
  return {
    'settings.get': () => repo.get(),
    'settings.update': ({ patch }) => repo.update(patch),
  };
}
