import { EngineError } from '../../domain/errors';
import type { MemoryRecord } from '../../domain/memory';
import type { MemoryRepo } from '../store/memory-repo';
import type { HistoryActor } from '../store/memory-rows';
import type { ProfileSync } from './profile-sync';
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
 * The profile follows (profile-sync.ts): a memory that stops being current takes the line it wrote
 * with it, one that becomes current again brings its line back.
 */
export function createMemoryUndo(deps: { memories: MemoryRepo; profileSync: ProfileSync }) {
  const { memories } = deps;
  const current = (list: readonly (MemoryRecord | undefined)[]) => list.filter((m): m is MemoryRecord => m?.status === 'active');

  /** `successor` replaced `id`: bring `id` back and retire the successor, if it is still current. Returns it as it was. */
  function swapBack(id: string, successorId: string | null, actor: HistoryActor, reason: string): MemoryRecord[] {
    if (successorId === null) return [];
    const successor = memories.find(successorId);
    if (!successor || successor.status !== 'active') return [];
    memories.change(successorId, { status: 'superseded', supersededBy: id }, { action: 'supersede', actor, reason });
    return [successor];
  }

  return {
    undo(id: string, actor: HistoryActor = 'user'): UndoResult {
      const before = memories.mustFind(id);
      const meta = { actor, reason: 'memory-undo' };
      const last = memories.lastChange(id);
      if (!last || (last.action !== 'create' && last.before === null)) {
        return { kind: 'nothing', memoryId: id, ...deps.profileSync.sync({ gone: [] }, meta) };
      }
      if (last.action === 'create') {
        const restored = memories
          .supersededBy(id)
          .filter((m) => m.status === 'superseded')
          .map((m) => memories.change(m.id, { status: 'active', supersededBy: null }, { action: 'restore', actor, reason: 'undo' }));
        memories.remove(id);
        const effect = deps.profileSync.sync({ gone: current([before]), back: restored }, meta);
        return { kind: 'deleted', memoryId: id, restored: restored.map((m) => m.id), ...effect };
      }
      const memory = memories.change(id, last.before!, { action: 'restore', actor, reason: 'undo' });
      const retired = last.action === 'supersede' && memory.status === 'active' ? swapBack(id, last.after?.supersededBy ?? null, actor, 'undo') : [];
      const effect = deps.profileSync.sync({ gone: current([before, ...retired]), back: current([memory]) }, meta);
      return { kind: 'restored', memoryId: id, memory, alsoChanged: retired.map((m) => m.id), ...effect };
    },

    /**
     * Brings back an older state. Without `version`: a superseded memory becomes active again (and the
     * memory that replaced it steps back). With `version`: the memory returns to how it was at that version.
     */
    restore(id: string, version?: number, actor: HistoryActor = 'user'): MemoryRecord {
      const before = memories.mustFind(id);
      const meta = { actor, reason: 'memory-restore' };
      if (version === undefined) {
        if (before.status === 'active') return before;
        const memory = memories.change(id, { status: 'active', supersededBy: null }, { action: 'restore', actor, reason: 'restore' });
        const retired = swapBack(id, before.supersededBy, actor, 'restore');
        deps.profileSync.sync({ gone: retired, back: current([memory]) }, meta);
        return memory;
      }
      const entry = memories.atVersion(id, version);
      if (!entry?.after) throw new EngineError('NOT_FOUND', 'That memory has no such `version` in its history.', { field: 'version' });
      const memory = memories.change(id, entry.after, { action: 'restore', actor, reason: 'restore-version' });
      const retired = before.status === 'superseded' && memory.status === 'active' ? swapBack(id, before.supersededBy, actor, 'restore') : [];
      deps.profileSync.sync({ gone: current([before, ...retired]), back: current([memory]) }, meta);
      return memory;
    },
  };
}

export type MemoryUndo = ReturnType<typeof createMemoryUndo>;
