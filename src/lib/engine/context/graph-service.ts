/**
 * graph.check — the query a consistency-check run makes (seed 004 "一致性检查的图谱查询"): the named
 * people/places/events, their facts (optionally at one story point) and the contradictions among them,
 * each with the evidence that explains it (document paragraph, setting file, episode).
 */
import { findContradictions, type StoryPoint } from '../../domain/context';
import type { KnowledgeGraph } from '../store/kg-repo';
import type { ProjectRepo } from '../store/project-repo';
import type { GraphCheckResult } from './types';

/** Predicates that hold one value at a time unless the caller names others. */
export const DEFAULT_FUNCTIONAL = ['status', 'location', 'age', 'occupation', 'alive'];

export function createGraphService(deps: { graph: KnowledgeGraph; projects: ProjectRepo }) {
  return {
    async check(input: { projectId: string; names: string[]; at?: StoryPoint; functional?: string[] }): Promise<GraphCheckResult> {
      deps.projects.mustFind(input.projectId, 'projectId');
      const { reader } = deps.graph;
      const entities = await reader.findEntities({ projectId: input.projectId, names: input.names });
      const facts = await reader.factsAbout({ projectId: input.projectId, entityIds: entities.map((e) => e.id), ...(input.at ? { at: input.at } : {}) });
      const contradictions = findContradictions(facts, new Set(input.functional ?? DEFAULT_FUNCTIONAL));
      return { entities, facts, contradictions };
    },
  };
}
