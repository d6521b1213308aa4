import type { EngineEnv } from '../env';

/**
 * Memories a tool found while a run was generating (000 "主动记忆搜索": the model's search_memories)
 * join the run's `memory_ids`, after the ones L4 kept. No schema change: the run's L4 items tell the
 * two apart (run-service `toolMemoryIds`).
 */
export function createRunToolMemories({ driver }: Pick<EngineEnv, 'driver'>) {
  return {
    /** Appends the ids the run does not hold yet; returns them. */
    append(runId: string, ids: readonly string[]): string[] {
      const row = driver.get<{ memory_ids: string }>('SELECT memory_ids FROM context_runs WHERE id = ?', [runId]);
      if (!row) return [];
      const held = JSON.parse(row.memory_ids) as string[];
      const added = [...new Set(ids)].filter((id) => !held.includes(id));
      if (added.length > 0) driver.run('UPDATE context_runs SET memory_ids = ? WHERE id = ?', [JSON.stringify([...held, ...added]), runId]);
      return added;
    },
  };
}

export type RunToolMemories = ReturnType<typeof createRunToolMemories>;
