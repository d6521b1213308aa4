import { EngineError } from '../../domain/errors';
import type { Services } from '../services';
import type { Handlers } from './index';

type MemoryMethods =
  | 'memory.list'
  | 'memory.get'
  | 'memory.getMany'
  | 'memory.create'
  | 'memory.update'
  | 'memory.delete'
  | 'memory.clear'
  | 'memory.undo'
  | 'memory.restore'
  | 'memory.retrieve'
  | 'memory.markAccessed'
  | 'memory.search'
  | 'memory.extract'
  | 'memory.evict'
  | 'profile.get'
  | 'profile.update'
  | 'profile.history'
  | 'profile.undo';

/** Long-term memory and the user profile (issue 4): validate (contract) → one service call → result. */
export function memoryHandlers(s: Services): Handlers<MemoryMethods> {
  const m = s.memory;
  return {
    'memory.list': (input) => m.search.list(input),
    'memory.get': ({ id }) => m.manager.get(id),
    'memory.getMany': ({ ids }) => m.memories.findMany(ids),
    'memory.create': (input) => m.manager.create(input),
    'memory.update': (input) => m.manager.update(input),
    'memory.delete': ({ id }) => m.manager.remove(id),
    'memory.clear': (input) => m.manager.clear(input),
    'memory.undo': ({ id }) => m.undo.undo(id),
    'memory.restore': ({ id, version }) => m.undo.restore(id, version),
    'memory.retrieve': (input) => m.retrieval.retrieve(input),
    'memory.markAccessed': ({ ids }) => ({ updated: m.memories.markAccessed(ids) }),
    'memory.search': ({ runId, ...input }) => {
      if (input.fromMs !== undefined && input.toMs !== undefined && input.fromMs > input.toMs) {
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `toMs`: the range ends before `fromMs`.', { fields: ['toMs'] });
      }
      const found = m.search.search(input);
      // For the model of a run: what it is shown counts as used (001) and stays with the run.
      if (runId !== undefined) s.context.runs.recordToolMemories(runId, found.items.map((i) => i.memory.id));
      return found;
    },
    'memory.extract': (input) => m.extraction.extract(input),
    'memory.evict': () => m.eviction.run(),
    'profile.get': () => ({ ...m.profile.get(), enabled: s.settings.get()['memory.enable_user_profile'] }),
    'profile.update': ({ content, expectedVersion }) => m.profile.write(content, { actor: 'user', reason: 'edit', expectedVersion }),
    'profile.history': (input) => m.profile.history(input),
    'profile.undo': () => m.profile.undo(),
  };
}
