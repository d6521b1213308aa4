import type { Logger } from '../../domain/log';
import type { MemoryRepo } from '../store/memory-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { EvictionReport } from './types';

/**
 * Seed 001 "Optional memory eviction for performance", off by default (MEMORY_EVICTION_THRESHOLD null).
 * With a threshold, once there are more active memories than it, the excess is deleted: lowest
 * confidence first, the oldest last access among equals (see MemoryRepo.evictionCandidates).
 *
 * Decided for the "user-confirmed?" question: memories a person created or edited by hand are never
 * evicted, so the count may stay above the threshold when only those remain. Superseded memories do
 * not count (retrieval never reads them); they go with a permanent delete or a clear.
 * It runs after each write that adds memories (extraction, manual create, archive) and on demand.
 */
export function createEviction(deps: { memories: MemoryRepo; settings: SettingsRepo; log: Logger }) {
  return {
    run(threshold: number | null = deps.settings.get().MEMORY_EVICTION_THRESHOLD): EvictionReport {
      const active = deps.memories.countActive();
      if (threshold === null || active <= threshold) return { evicted: [], threshold, active };
      const evicted = deps.memories.evictionCandidates(active - threshold);
      deps.memories.removeMany(evicted);
      if (evicted.length > 0) deps.log.info('memory.evicted', { count: evicted.length, threshold });
      return { evicted, threshold, active: active - evicted.length };
    },
  };
}

export type Eviction = ReturnType<typeof createEviction>;
