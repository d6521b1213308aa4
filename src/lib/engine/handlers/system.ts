import type { EngineEnv } from '../env';
import { currentVersion } from '../store/migrate';
import type { Handlers } from './index';

export function systemHandlers(env: EngineEnv): Handlers<'system.status'> {
  const { driver } = env;
  return {
    'system.status': () => {
      const pages = driver.get<{ n: number }>('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()');
      return {
        storage: env.storage.kind,
        storageReason: env.storage.reason,
        readOnly: env.storage.readOnly === true,
        schemaVersion: currentVersion(driver),
        sqliteVersion: String(driver.get<{ v: string }>('SELECT sqlite_version() AS v')?.v ?? ''),
        driver: driver.kind,
        dbBytes: Number(pages?.n ?? 0),
        startedAt: env.startedAt,
      };
    },
  };
}
