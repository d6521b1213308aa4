import type { SceneType } from '../../domain/episodes/scene-type';
import type { ImplicitSignal } from '../../domain/episodes/signals';
import { EngineError } from '../../domain/errors';
import type { EpisodeEvidence, EpisodeFeatures } from '../../domain/semantic/votes';
import type { Episode, EpisodeKind } from '../episodes/types';
import type { EngineEnv } from '../env';
import type { SqlParam } from './driver';
import { EPISODE_FTS_INSERT, episodeFtsColumns } from './fts-columns';
import { keptText } from '../../domain/episodes/summary';
import { decayScore } from '../../domain/lifecycle/decay';
import { reclaimBeforeEpisodeWrite } from '../lifecycle/reclaim';
import { createEpisodeRecallQuery } from './episode-recall-query';

interface EpisodeRow {
  rid: number;
  id: string;
  kind: EpisodeKind;
  run_id: string | null;
  skill_id: string;
  project_id: string | null;
  document_id: string | null;
  scene_type: SceneType;
  scene_source: 'heuristic' | 'model';
  input_summary: string;
  candidates: string;
  selected_index: number;
  final_text: string | null;
  explicit: string | null;
  implicit: ImplicitSignal;
  first_signal: ImplicitSignal | null;
  valence: number;
  edit_distance: number | null;
  features: string;
  negated: string;
  uses: number;
  importance: number;
  recall_count: number;
  last_recalled_at: number | null;
  compressed: number;
  summary: string | null;
  decay: number;
  pinned: number;
  undone_at: number | null;
  created_at: number;
  updated_at: number;
}

export const toEpisode = (r: EpisodeRow): Episode => ({
  id: r.id,
  kind: r.kind,
  runId: r.run_id,
  skillUsed: r.skill_id,
  inputContext: r.input_summary,
  projectId: r.project_id,
  chapterId: r.document_id,
  sceneType: r.scene_type,
  sceneSource: r.scene_source,
  candidates: JSON.parse(r.candidates) as string[],
  selectedIndex: r.selected_index,
  finalText: r.final_text,
  explicit: r.explicit,
  implicit: r.implicit,
  firstSignal: r.first_signal,
  valence: r.valence,
  editDistance: r.edit_distance,
  importance: r.importance,
  recallCount: r.recall_count,
  lastRecalledAt: r.last_recalled_at,
  compressed: r.compressed === 1,
  summary: r.summary,
  decay: r.decay,
  pinned: r.pinned === 1,
  undoneAt: r.undone_at,
  uses: r.uses,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface NewEpisode {
  kind: EpisodeKind;
  runId: string | null;
  skillId: string;
  projectId: string | null;
  documentId: string | null;
  sceneType: SceneType;
  inputSummary: string;
  candidates: string[];
  selectedIndex: number;
  finalText: string | null;
  explicit: string | null;
  implicit: ImplicitSignal;
  valence: number;
  editDistance: number | null;
  features: EpisodeFeatures;
  negated?: { pattern: string; pole: string }[];
  uses?: number;
  importance: number;
}

export interface EpisodeFilter {
  projectId?: string | null;
  sceneType?: SceneType;
  skillId?: string;
  kind?: EpisodeKind;
  documentId?: string;
}

export { keptText };

function filterSql(f: EpisodeFilter, alias = ''): { sql: string; params: SqlParam[] } {
  const where: string[] = [];
  const params: SqlParam[] = [];
  if (f.projectId !== undefined) {
    if (f.projectId === null) where.push(`${alias}project_id IS NULL`);
    else (where.push(`${alias}project_id = ?`), params.push(f.projectId));
  }
  if (f.sceneType) (where.push(`${alias}scene_type = ?`), params.push(f.sceneType));
  if (f.skillId) (where.push(`${alias}skill_id = ?`), params.push(f.skillId));
  if (f.kind) (where.push(`${alias}kind = ?`), params.push(f.kind));
  if (f.documentId) (where.push(`${alias}document_id = ?`), params.push(f.documentId));
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

/**
 * 003 episodes with their full-text rows. Invariant (inside the engine's write transaction): every row
 * has exactly one episodes_fts row, rewritten when its text changes, removed by trigger on delete.
 */
export function createEpisodeRepo({ driver, clock, ids }: Pick<EngineEnv, 'driver' | 'clock' | 'ids'>) {
  const find = (id: string) => {
    const r = driver.get<EpisodeRow>('SELECT * FROM episodes WHERE id = ?', [id]);
    return r ? toEpisode(r) : undefined;
  };
  const mustFind = (id: string, field = 'id') => {
    const e = find(id);
    if (!e) throw new EngineError('NOT_FOUND', `No episode with that \`${field}\`.`, { field });
    return e;
  };
  const ridOf = (id: string) => driver.get<{ rid: number }>('SELECT rid FROM episodes WHERE id = ?', [id])?.rid;
  const index = (rid: number, e: Episode, replace: boolean) => {
    if (replace) driver.run('DELETE FROM episodes_fts WHERE rowid = ?', [rid]);
    driver.run(EPISODE_FTS_INSERT, [rid, ...episodeFtsColumns({ inputSummary: e.inputContext, keptText: keptText(e) })]);
  };

  return {
    find,
    mustFind,
    byRun(runId: string): Episode | undefined {
      const r = driver.get<EpisodeRow>('SELECT * FROM episodes WHERE run_id = ?', [runId]);
      return r ? toEpisode(r) : undefined;
    },
    insert(input: NewEpisode): Episode {
      // 003 记忆上限自动回收: a project at its cap makes room first; the write goes on.
      reclaimBeforeEpisodeWrite(driver, clock, input.projectId);
      const id = ids();
      const now = clock.now();
      const row = driver.get<{ rid: number }>(
        `INSERT INTO episodes (id, kind, run_id, skill_id, project_id, document_id, scene_type, input_summary, candidates, selected_index,
           final_text, explicit, implicit, valence, edit_distance, features, negated, uses, importance, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING rid`,
        [
          id, input.kind, input.runId, input.skillId, input.projectId, input.documentId, input.sceneType, input.inputSummary,
          JSON.stringify(input.candidates), input.selectedIndex, input.finalText, input.explicit, input.implicit, input.valence,
          input.editDistance, JSON.stringify(input.features), JSON.stringify(input.negated ?? []), input.uses ?? 1, input.importance, now, now,
        ],
      );
      // The stored row, built from what was just written (the columns not written take their defaults) instead of
      // read back: record-reads.test.ts checks it equals a read of the row.
      const episode: Episode = {
        id,
        kind: input.kind,
        runId: input.runId,
        skillUsed: input.skillId,
        inputContext: input.inputSummary,
        projectId: input.projectId,
        chapterId: input.documentId,
        sceneType: input.sceneType,
        sceneSource: 'heuristic',
        candidates: [...input.candidates],
        selectedIndex: input.selectedIndex,
        finalText: input.finalText,
        explicit: input.explicit,
        implicit: input.implicit,
        firstSignal: null,
        valence: input.valence,
        editDistance: input.editDistance,
        importance: input.importance,
        recallCount: 0,
        lastRecalledAt: null,
        compressed: false,
        summary: null,
        decay: 1,
        pinned: false,
        undoneAt: null,
        uses: input.uses ?? 1,
        createdAt: now,
        updatedAt: now,
      };
      index(row?.rid as number, episode, false);
      return episode;
    },
    /**
     * Replaces the user's side of an episode (a second outcome for the same run: another choice, an undo).
     * The text index follows the kept text.
     */
    patch(
      id: string,
      p: Partial<{
        selectedIndex: number;
        finalText: string | null;
        explicit: string | null;
        implicit: ImplicitSignal;
        firstSignal: ImplicitSignal | null;
        valence: number;
        editDistance: number | null;
        features: EpisodeFeatures;
        importance: number;
        undoneAt: number | null;
        candidates: string[];
        sceneType: SceneType;
        sceneSource: 'heuristic' | 'model';
      }>,
    ): Episode {
      const before = mustFind(id);
      const sets: string[] = [];
      const params: SqlParam[] = [];
      const col: Record<string, [string, (v: never) => SqlParam]> = {
        selectedIndex: ['selected_index', (v: number) => v],
        finalText: ['final_text', (v: string | null) => v],
        explicit: ['explicit', (v: string | null) => v],
        implicit: ['implicit', (v: string) => v],
        firstSignal: ['first_signal', (v: string | null) => v],
        valence: ['valence', (v: number) => v],
        editDistance: ['edit_distance', (v: number | null) => v],
        features: ['features', (v: EpisodeFeatures) => JSON.stringify(v)],
        importance: ['importance', (v: number) => v],
        undoneAt: ['undone_at', (v: number | null) => v],
        candidates: ['candidates', (v: string[]) => JSON.stringify(v)],
        sceneType: ['scene_type', (v: string) => v],
        sceneSource: ['scene_source', (v: string) => v],
      };
      for (const [k, v] of Object.entries(p)) {
        const c = col[k];
        if (!c || v === undefined) continue;
        sets.push(`${c[0]} = ?`);
        params.push(c[1](v as never));
      }
      if (sets.length === 0) return before;
      driver.run(`UPDATE episodes SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`, [...params, clock.now(), id]);
      const after = mustFind(id);
      if (keptText(after) !== keptText(before)) index(ridOf(id) as number, after, true);
      return after;
    },
    list(opts: EpisodeFilter & { limit: number; offset: number }): { items: Episode[]; total: number } {
      const f = filterSql(opts);
      const total = driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM episodes WHERE ${f.sql}`, f.params)?.n ?? 0;
      const items = driver
        .all<EpisodeRow>(`SELECT * FROM episodes WHERE ${f.sql} ORDER BY rid DESC LIMIT ? OFFSET ?`, [...f.params, opts.limit, opts.offset])
        .map(toEpisode);
      return { items, total };
    },
    getMany(idList: readonly string[]): Episode[] {
      if (idList.length === 0) return [];
      const rows = driver.all<EpisodeRow>(`SELECT * FROM episodes WHERE id IN (${idList.map(() => '?').join(',')})`, [...idList]);
      const byId = new Map(rows.map((r) => [r.id, toEpisode(r)]));
      return idList.map((id) => byId.get(id)).filter((e): e is Episode => e !== undefined);
    },
    /** Recall's reads (candidates by full text and by scene type, scoring columns only): episode-recall-query.ts. */
    recall: createEpisodeRecallQuery(driver),
    /**
     * 003: recall_count + 1 and last_recalled_at = now for the episodes placed in a context, and (003 被召回的记忆重新激活)
     * the stored decay score follows at once (the daily pass would too). One read of the scoring columns and one
     * UPDATE for the whole list (ids and new scores as one JSON parameter), whatever its length.
     */
    markRecalled(idList: readonly string[]): number {
      if (idList.length === 0) return 0;
      const now = clock.now();
      const rows = driver.all<{ id: string; created_at: number; recall_count: number; importance: number; pinned: number }>(
        'SELECT id, created_at, recall_count, importance, pinned FROM episodes WHERE id IN (SELECT value FROM json_each(?))',
        [JSON.stringify(idList)],
      );
      const next = rows.map((r) => ({
        id: r.id,
        decay: decayScore({ createdAt: r.created_at, lastRecalledAt: now, recallCount: r.recall_count + 1, importance: r.importance, exempt: r.pinned === 1 }, now),
      }));
      return driver.run(
        `UPDATE episodes SET recall_count = recall_count + 1, last_recalled_at = ?, decay = json_extract(j.value, '$.decay')
         FROM json_each(?) AS j WHERE episodes.id = json_extract(j.value, '$.id')`,
        [now, JSON.stringify(next)],
      ).changes;
    },
    /** 003 "支撑该规则的情景记忆标记为负向": these episodes count against the pattern from now on. */
    negate(idList: readonly string[], mark: { pattern: string; pole: string }): number {
      let n = 0;
      for (const id of idList) {
        const row = driver.get<{ negated: string }>('SELECT negated FROM episodes WHERE id = ?', [id]);
        if (!row) continue;
        const list = JSON.parse(row.negated) as { pattern: string; pole: string }[];
        if (list.some((x) => x.pattern === mark.pattern && x.pole === mark.pole)) continue;
        driver.run('UPDATE episodes SET negated = ? WHERE id = ?', [JSON.stringify([...list, mark]), id]);
        n++;
      }
      return n;
    },
    maxRid: () => driver.get<{ m: number | null }>('SELECT MAX(rid) AS m FROM episodes')?.m ?? 0,
    /**
     * Episodes recorded after `rid`; with `atMost`, counting stops there (a trigger only asks "at least N?": every
     * episode.record asks it, and an uncapped count walked every episode since the last distillation).
     */
    countAfter: (rid: number, atMost?: number) =>
      (atMost === undefined
        ? driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE rid > ?', [rid])
        : driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM episodes WHERE rid > ? LIMIT ?)', [rid, atMost])
      )?.n ?? 0,
    count: (f: EpisodeFilter = {}) => {
      const w = filterSql(f);
      return driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM episodes WHERE ${w.sql}`, w.params)?.n ?? 0;
    },
    /** What distillation reads, episodes up to `watermark`: numbers and ids only. */
    evidence(watermark: number, replaces: (skillId: string) => boolean): EpisodeEvidence[] {
      return driver
        .all<Pick<EpisodeRow, 'id' | 'kind' | 'project_id' | 'skill_id' | 'scene_type' | 'implicit' | 'valence' | 'selected_index' | 'features' | 'negated' | 'uses' | 'created_at'>>(
          `SELECT id, kind, project_id, skill_id, scene_type, implicit, valence, selected_index, features, negated, uses, created_at
           FROM episodes WHERE rid <= ? ORDER BY rid`,
          [watermark],
        )
        .map((r) => ({
          id: r.id,
          kind: r.kind,
          projectId: r.project_id,
          skillId: r.skill_id,
          sceneType: r.scene_type,
          signal: r.implicit,
          valence: r.valence,
          selectedIndex: r.selected_index,
          replaces: replaces(r.skill_id),
          features: { candidates: [], ...(JSON.parse(r.features) as Partial<EpisodeFeatures>) },
          negated: JSON.parse(r.negated) as { pattern: string; pole: string }[],
          uses: r.uses,
          createdAt: r.created_at,
        }));
    },
    deleteProject: (projectId: string) => driver.run('DELETE FROM episodes WHERE project_id = ?', [projectId]).changes,
  };
}

export type EpisodeRepo = ReturnType<typeof createEpisodeRepo>;
