import { unwrap } from '../../domain/errors';
import type { JobDefinition } from './types';

/**
 * Seed 003 "会话结束时工作记忆归档": writing sessions idle for 30 minutes — or whose tab is gone — end,
 * and their signals past the threshold become episodes. A sweep that ends nothing is not recorded.
 */
export const writingMemoryJob: JobDefinition = {
  name: 'writing-memory-sweep',
  periodMs: 60_000,
  async run({ engine }) {
    const res = unwrap(await engine.call('writingMemory.sweep', {}));
    if (res.ended.length === 0) return null;
    return { ended: res.ended.length, archived: res.archived.length, dropped: res.dropped };
  },
};
