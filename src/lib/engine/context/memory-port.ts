/**
 * What the context engine needs from long-term memory (issue 4), in one narrow port so the layer
 * loaders do not depend on the memory module's internals:
 *
 *   L1  profile()          000 "加载用户画像" (the engine checks memory.enable_user_profile itself)
 *   L4  retrieve(…)        000 "被动 RAG 检索原子记忆", topN from the skill or memory.rag_top_n
 *   run markAccessed(ids)  001 "Memory access tracking": only the memories L4 actually kept
 */
import type { MemoryServices } from '../memory';

export interface RetrievedForContext {
  id: string;
  content: string;
}

export interface MemoryPort {
  profile(): { content: string; version: number };
  retrieve(q: { query: string; topN: number; sessionId?: string; projectId: string | null }): Promise<RetrievedForContext[]>;
  markAccessed(ids: readonly string[]): void;
}

export function memoryPortFrom(memory: Pick<MemoryServices, 'profile' | 'retrieval' | 'memories'>): MemoryPort {
  return {
    profile: () => {
      const p = memory.profile.get();
      return { content: p.content, version: p.version };
    },
    retrieve: async (q) =>
      (await memory.retrieval.retrieve({ query: q.query, topN: q.topN, sessionId: q.sessionId, projectId: q.projectId, purpose: 'context' })).items.map((i) => ({
        id: i.memory.id,
        content: i.memory.content,
      })),
    markAccessed: (ids) => {
      memory.memories.markAccessed(ids);
    },
  };
}
