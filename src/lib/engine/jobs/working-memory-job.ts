import { unwrap } from '../../domain/errors';
import type { JobDefinition } from './types';

/**
 * Seed 001: working memories idle for 30 minutes are removed (what matters archived first). A sweep that
 * finds nothing idle changes nothing and is not recorded.
 */
export const workingMemoryJob: JobDefinition = {
  name: 'working-memory-sweep',
  periodMs: 60_000,
  async run({ engine }) {
    const res = unwrap(await engine.call('workingMemory.sweep', {}));
    if (res.removed.length === 0 && res.archived === 0) return null;
    return { removed: res.removed.length, archived: res.archived };
  },
};
