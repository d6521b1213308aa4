/**
 * The minimal knowledge-graph store behind `KnowledgeGraphReader` (seed 004 "一致性检查的图谱查询",
 * docs/design/05-knowledge-graph.md): entities and bitemporal facts of a project, read back in story
 * order. Extraction from chapters is not here yet; facts arrive through graph.addFact.
 */
import {
  compareStoryPoints,
  isValidAt,
  type Entity,
  type EntityType,
  type Evidence,
  type Fact,
  type KnowledgeGraphReader,
  type StoryPoint,
  type Validity,
} from '../../domain/context';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';

interface EntityRow {
  id: string;
  project_id: string;
  type: EntityType;
  name: string;
  aliases: string;
  source_ref: string | null;
}

interface FactRow {
  id: string;
  subject_id: string;
  predicate: string;
  object: string;
  valid_from_chapter: number | null;
  valid_from_scene: number | null;
  valid_to_chapter: number | null;
  valid_to_scene: number | null;
  evidence: string;
  recorded_at: number;
}

const toEntity = (r: EntityRow): Entity => ({
  id: r.id,
  projectId: r.project_id,
  type: r.type,
  name: r.name,
  aliases: JSON.parse(r.aliases) as string[],
  ...(r.source_ref === null ? {} : { sourceRef: r.source_ref }),
});

const point = (chapter: number | null, scene: number | null): StoryPoint | null => (chapter === null ? null : { chapter, scene: scene ?? 0 });

const toFact = (r: FactRow): Fact => ({
  id: r.id,
  subject: r.subject_id,
  predicate: r.predicate,
  object: r.object,
  valid: { from: point(r.valid_from_chapter, r.valid_from_scene), to: point(r.valid_to_chapter, r.valid_to_scene) },
  recordedAt: r.recorded_at,
  evidence: JSON.parse(r.evidence) as Evidence[],
});

/** Story order: unbounded starts first, then by `valid.from`, then record time. */
function storyOrder(a: Fact, b: Fact): number {
  if (!a.valid.from || !b.valid.from) return (a.valid.from ? 1 : 0) - (b.valid.from ? 1 : 0) || a.recordedAt - b.recordedAt;
  return compareStoryPoints(a.valid.from, b.valid.from) || a.recordedAt - b.recordedAt;
}

const norm = (s: string) => s.normalize('NFC').trim().toLowerCase();

export function createKnowledgeGraph({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const entitiesOf = (projectId: string) =>
    driver.all<EntityRow>('SELECT * FROM kg_entities WHERE project_id = ? ORDER BY created_at, id', [projectId]).map(toEntity);
  const factsOf = (projectId: string, entityIds: readonly string[]) =>
    entityIds.length === 0
      ? []
      : driver
          .all<FactRow>(`SELECT * FROM kg_facts WHERE project_id = ? AND subject_id IN (${entityIds.map(() => '?').join(',')})`, [projectId, ...entityIds])
          .map(toFact);

  const reader: KnowledgeGraphReader = {
    async findEntities({ projectId, names }) {
      const wanted = new Set(names.map(norm));
      return entitiesOf(projectId).filter((e) => wanted.has(norm(e.name)) || e.aliases.some((a) => wanted.has(norm(a))));
    },
    async factsAbout({ projectId, entityIds, at, predicates }) {
      return factsOf(projectId, entityIds)
        .filter((f) => (at ? isValidAt(f.valid, at) : true) && (predicates ? predicates.includes(f.predicate) : true))
        .sort(storyOrder);
    },
    async timeline({ projectId, entityId }) {
      return factsOf(projectId, [entityId]).sort(storyOrder);
    },
  };

  return {
    reader,
    addEntity(input: { projectId: string; type: EntityType; name: string; aliases: string[]; sourceRef?: string }): Entity {
      const id = ids();
      driver.run('INSERT INTO kg_entities (id, project_id, type, name, aliases, source_ref, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        id,
        input.projectId,
        input.type,
        input.name,
        JSON.stringify(input.aliases),
        input.sourceRef ?? null,
        clock.now(),
      ]);
      return toEntity(driver.get<EntityRow>('SELECT * FROM kg_entities WHERE id = ?', [id]) as EntityRow);
    },
    addFact(input: { projectId: string; subject: string; predicate: string; object: string; valid: Validity; evidence: Evidence[] }): Fact {
      if (!driver.get('SELECT 1 FROM kg_entities WHERE id = ? AND project_id = ?', [input.subject, input.projectId])) {
        throw new EngineError('NOT_FOUND', 'No entity with that `subject` in this project.', { field: 'subject' });
      }
      const id = ids();
      const { from, to } = input.valid;
      driver.run(
        `INSERT INTO kg_facts (id, project_id, subject_id, predicate, object, valid_from_chapter, valid_from_scene, valid_to_chapter, valid_to_scene, evidence, recorded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, input.projectId, input.subject, input.predicate, input.object, from?.chapter, from?.scene, to?.chapter, to?.scene, JSON.stringify(input.evidence), clock.now()],
      );
      return toFact(driver.get<FactRow>('SELECT * FROM kg_facts WHERE id = ?', [id]) as FactRow);
    },
  };
}

export type KnowledgeGraph = ReturnType<typeof createKnowledgeGraph>;
