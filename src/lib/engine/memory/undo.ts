import { EngineError } from '../../domain/errors';
import type { MemoryRecord } from '../../domain/memory';
import type { MemoryRepo } from '../store/memory-repo';
import type { HistoryActor } from '../store/memory-rows';
import type { UndoResult } from './types';

/**
 * Undo and restore from memory_history (the chat's "remembered: … [undo]", the manager's history view).
 *
 *   last change   undo
 *   create        delete the memory (what it superseded becomes active again)
 *   update        restore the snapshot before it
 *   restore       restore the snapshot before it (an undo can itself be taken back)
 *   supersede     make it active again; its successor, if still active, is superseded by it
 *
 * Every step but the delete is itself a history row (action `restore`/`supersede`, reason `undo`).
 */
export function createMemoryUndo(deps: { memories: MemoryRepo }) {
  const { memories } = deps;

  /** `successor` replaced `id`: bring `id` back and retire the successor, if it is still current. */
  function swapBack(id: string, successorId: string | null, actor: HistoryActor, reason: string): string[] {
    if (successorId === null) return [];
    const successor = memories.find(successorId);
    if (!successor || successor.status !== 'active') return [];
    memories.change(successorId, { status: 'superseded', supersededBy: id }, { action: 'supersede', actor, reason });
    return [successorId];
  }

  return {
    undo(id: string, actor: HistoryActor = 'user'): UndoResult {
      memories.mustFind(id);
      const last = memories.lastChange(id);
      if (!last) return { kind: 'nothing', memoryId: id };
      if (last.action === 'create') {
        const restored = memories
          .supersededBy(id)
          .filter((m) => m.status === 'superseded')
          .map((m) => memories.change(m.id, { status: 'active', supersededBy: null }, { action: 'restore', actor, reason: 'undo' }).id);
        memories.remove(id);
        return { kind: 'deleted', memoryId: id, restored };
      }
      if (last.before === null) return { kind: 'nothing', memoryId: id };
      const memory = memories.change(id, last.before, { action: 'restore', actor, reason: 'undo' });
      const alsoChanged =
        last.action === 'supersede' && memory.status === 'active' ? swapBack(id, last.after?.supersededBy ?? null, actor, 'undo') : [];
      return { kind: 'restored', memoryId: id, memory, alsoChanged };
    },

    /**
     * Brings back an older state. Without `version`: a superseded memory becomes active again (and the
     * memory that replaced it steps back). With `version`: the memory returns to how it was at that version.
     */
    restore(id: string, version?: number, actor: HistoryActor = 'user'): MemoryRecord {
      const current = memories.mustFind(id);
      if (version === undefined) {
        if (current.status === 'active') return current;
        const memory = memories.change(id, { status: 'active', supersededBy: null }, { action: 'restore', actor, reason: 'restore' });
        swapBack(id, current.supersededBy, actor, 'restore');
        return memory;
      }
      const entry = memories.atVersion(id, version);
      if (!entry?.after) throw new EngineError('NOT_FOUND', 'That memory has no such `version` in its history.', { field: 'version' });
      const memory = memories.change(id, entry.after, { action: 'restore', actor, reason: 'restore-version' });
      if (current.status === 'superseded' && memory.status === 'active') swapBack(id, current.supersededBy, actor, 'restore');
      return memory;
    },
  };
}

export type MemoryUndo = ReturnType<typeof createMemoryUndo>;
