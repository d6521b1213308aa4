import type { EngineEnv } from '../env';
import { reclaimLog, storageUsage } from '../store/storage-use';
import type { Handlers } from './index';

/** Issue 13: the storage page's figures and its "free space now". */
export function storageHandlers(env: EngineEnv): Handlers<'storage.usage' | 'storage.reclaim'> {
  return {
    'storage.usage': () => storageUsage(env.driver),
    'storage.reclaim': () => reclaimLog(env.driver),
  };
}
