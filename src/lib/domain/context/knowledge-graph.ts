/**
 * Knowledge graph — design first (seed 004 "SHOULD 固化知识图谱的数据模型与检索接口（设计先行）").
 * This file fixes the data model and the query port a consistency check (一致性检查) will use, plus
 * the pure reasoning over them. Storage (tables, extraction from chapters) comes in a later sprint;
 * docs/design/05-knowledge-graph.md describes the plan.
 *
 * Two clocks, never mixed:
 *   story time  (valid time)      where in the narrative a fact holds: chapter.scene, half-open [from, to)
 *   record time (transaction time) when Engram learned it: epoch ms, for provenance and undo
 */

/** A point in the story; `scene` 0 means "the chapter as a whole / its start". */
export interface StoryPoint {
  chapter: number;
  scene: number;
}

/** Half-open [from, to) in story time; null = unbounded on that side. */
export interface Validity {
  from: StoryPoint | null;
  to: StoryPoint | null;
}

export type EntityType = 'character' | 'place' | 'object' | 'organization' | 'event' | 'concept';

export interface Entity {
  id: string;
  projectId: string;
  type: EntityType;
  name: string;
  aliases: string[];
  /** Project-relative file that defines it (e.g. `.engram/characters/alice.md`), if any. */
  sourceRef?: string;
}

/** Where a fact was read: `document:12#p4` (paragraph), `file:.engram/world/map.md`, `episode:88`. */
export interface Evidence {
  ref: string;
  at?: StoryPoint;
}

/** One edge: subject —predicate→ object (an entity id or a literal such as `dead`). */
export interface Fact {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  valid: Validity;
  recordedAt: number;
  evidence: Evidence[];
}

/** The read port the consistency-check skill uses; the engine implements it over SQLite. */
export interface KnowledgeGraphReader {
  findEntities(q: { projectId: string; names: string[] }): Promise<Entity[]>;
  /** Facts about these entities, optionally only those valid at `at` and with these predicates. */
  factsAbout(q: { projectId: string; entityIds: string[]; at?: StoryPoint; predicates?: string[] }): Promise<Fact[]>;
  /** Every fact about one entity in story order (valid.from, unbounded first). */
  timeline(q: { projectId: string; entityId: string }): Promise<Fact[]>;
}

export function compareStoryPoints(a: StoryPoint, b: StoryPoint): number {
  return a.chapter - b.chapter || a.scene - b.scene;
}

export function isValidAt(valid: Validity, at: StoryPoint): boolean {
  if (valid.from && compareStoryPoints(at, valid.from) < 0) return false;
  if (valid.to && compareStoryPoints(at, valid.to) >= 0) return false;
  return true;
}

/** The overlap of two validities, or null when they never hold at the same story time. */
export function overlap(a: Validity, b: Validity): Validity | null {
  const later = (x: StoryPoint | null, y: StoryPoint | null) => (!x ? y : !y ? x : compareStoryPoints(x, y) >= 0 ? x : y);
  const earlier = (x: StoryPoint | null, y: StoryPoint | null) => (!x ? y : !y ? x : compareStoryPoints(x, y) <= 0 ? x : y);
  const from = later(a.from, b.from);
  const to = earlier(a.to, b.to);
  if (from && to && compareStoryPoints(from, to) >= 0) return null;
  return { from, to };
}

/** The state of an entity at a story point: for each predicate, the facts that hold there. */
export function stateAt(facts: readonly Fact[], opts: { subject: string; at: StoryPoint }): Map<string, Fact[]> {
  const state = new Map<string, Fact[]>();
  for (const f of facts) {
    if (f.subject !== opts.subject || !isValidAt(f.valid, opts.at)) continue;
    state.set(f.predicate, [...(state.get(f.predicate) ?? []), f]);
  }
  return state;
}

export interface Contradiction {
  subject: string;
  predicate: string;
  facts: [Fact, Fact];
  /** Where in the story both claims hold at once. */
  during: Validity;
  /** Both facts' evidence, so the finding can be explained (004 "可解释的证据引用"). */
  evidence: Evidence[];
}

/**
 * Consistency check: a functional predicate (one value at a time: `status`, `location`, …) with two
 * different values over overlapping story time. E.g. Alice `status=dead` from 5.0 and
 * `location=bridge` is fine, but `status=alive` asserted in 7.2 contradicts.
 */
export function findContradictions(facts: readonly Fact[], functional: ReadonlySet<string>): Contradiction[] {
  const groups = new Map<string, Fact[]>();
  for (const f of facts) {
    if (!functional.has(f.predicate)) continue;
    const key = `${f.subject}\u0000${f.predicate}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out: Contradiction[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const a = sorted[i] as Fact;
        const b = sorted[j] as Fact;
        const during = a.object === b.object ? null : overlap(a.valid, b.valid);
        if (during) out.push({ subject: a.subject, predicate: a.predicate, facts: [a, b], during, evidence: [...a.evidence, ...b.evidence] });
      }
    }
  }
  return out;
}
