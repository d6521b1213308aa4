import type { SceneType } from '../../domain/episodes/scene-type';
import type { SqlDriver } from './driver';

/**
 * The reads episode recall makes (003 情景记忆召回), sized for 10,000 episodes (issue 17's benchmark goal: within 2× of
 * memory.retrieve). Profiled on the real engine: ranking every full-text match with bm25 was ~70 % of a query (an OR
 * of ~48 words and CJK pairs matched a third of all episodes; recall now asks at most 12 whole words and 12 pairs,
 * episodes/recall.ts RECALL_QUERY_TERMS), and reading whole rows (candidates, final text, JSON)
 * for ~100 candidates when 3–5 are returned was most of the rest. So:
 *
 *   - bm25 ranks only the newest RANK_WINDOW matches of the asked scope's live (not compressed) episodes, walked
 *     newest first in the same statement that scores them (as turn recall bounds its ranking at 100,000 turns,
 *     recall/turn-index.ts); older matches are the ones recency (and decay) would rank down anyway. The window
 *     counts the scope's own matches: other projects' and compressed matches are walked past, so a small project
 *     beside a big one still finds its own (until a22 they filled the window first and hid them). Its cost: the walk
 *     is bounded by the scope's matches, not by the window — a project with few matches walks every match of the
 *     index (WalkPlan says how that walk is kept cheap);
 *   - candidates are read as the few columns the score needs, from a covering index keyed by rid (migration 0016,
 *     RECALL_INDEX), not from the ~0.9 KB episode rows; the caller fetches its 3–5 winners whole.
 *   - the walk reads every segment of episodes_fts: the lifecycle's decay pass merges it into one when enough was
 *     recorded since the last time (store/fts-merge.ts createFullMerge; natively −21 % of this statement at 10,000);
 *   - episode.query's project check and the walk plan are one read (scope): the project's existence and the
 *     episode counts that choose the plan;
 *   - in the browser, `ranked` and `recentOfScene` are prepared once: SQLite 3.54 re-prepared both on every binding
 *     (their plans may depend on bound values) until the wasm driver turned the query planner stability guarantee
 *     on (store/sqlite-wasm-driver.ts; in Node's wasm build at 10,000 episodes, alternately, ranking p50 9.9 → 8.1
 *     ms, scene lane 0.22 → 0.13 ms).
 *
 * Each statement has one fixed SQL text per kind of project scope and walk plan (the driver caches prepared
 * statements by text).
 */
export const RANK_WINDOW = 500;

/**
 * The covering index the walk reads instead of the episode rows (migration 0016): every column `ranked` tests or
 * returns. Its test checks the plan stays covering if a column is added to BARE.
 */
export const RECALL_INDEX = 'episodes_recall';

/** What scoring a candidate needs, nothing more. */
export interface EpisodeScoreRow {
  rid: number;
  id: string;
  runId: string | null;
  sceneType: SceneType;
  importance: number;
  recallCount: number;
  lastRecalledAt: number | null;
  pinned: boolean;
  createdAt: number;
}

interface Row {
  rid: number;
  id: string;
  run_id: string | null;
  scene_type: SceneType;
  importance: number;
  recall_count: number;
  last_recalled_at: number | null;
  pinned: number;
  created_at: number;
}

const BARE = 'rid, id, run_id, scene_type, importance, recall_count, last_recalled_at, pinned, created_at';
const COLUMNS = BARE.split(', ').map((c) => `e.${c}`).join(', ');

const toScoreRow = (r: Row): EpisodeScoreRow => ({
  rid: r.rid,
  id: r.id,
  runId: r.run_id,
  sceneType: r.scene_type,
  importance: r.importance,
  recallCount: r.recall_count,
  lastRecalledAt: r.last_recalled_at,
  pinned: r.pinned === 1,
  createdAt: r.created_at,
});

/** A project's episodes (an id), those of no project (null) or every episode (undefined). */
export type ProjectScope = string | null | undefined;

/** One fixed SQL text per kind of scope (so each uses episodes_project_scene when a project is named). */
const projectWhere = (p: ProjectScope, alias = 'e'): { sql: string; params: string[] } =>
  p === undefined ? { sql: '1', params: [] } : p === null ? { sql: `${alias}.project_id IS NULL`, params: [] } : { sql: `${alias}.project_id = ?`, params: [p] };

/**
 * How the walk tells the asked scope's live matches from the rest. 'row': it looks each match's episode row up and
 * tests it. 'set': the scope's live rids are read first from episodes_lifecycle (compressed, project_id), an index
 * only, and each match is tested against that set; only the matches in it are looked up. Natively at 10,000
 * episodes (CPU, alternately, the benchmark's queries): a scope with half of the episodes 'row' 4.7 vs 'set' 5.6 ms
 * p50 (the set costs more to build than the lookups it saves), a quarter 4.8 vs 4.6, a tenth 6.3 vs 4.4, none of
 * them 4.5 vs 1.7 — a small project beside a big one walks every match, and the lookups were most of that walk.
 */
export type WalkPlan = 'row' | 'set';
/** Below this share of all episodes a scope's walk tests matches against its set of rids. */
export const SET_PLAN_SHARE = 0.25;

/** What recall needs to know of its scope before the walk, read in one statement (EpisodeRecallQuery.scope). */
export interface ScopeRead {
  /** The named project exists (always true for null and undefined, which name none). */
  known: boolean;
  plan: WalkPlan;
}

export function createEpisodeRecallQuery(driver: SqlDriver) {
  /**
   * Whether the named project exists and the walk plan: 'set' for a scope under SET_PLAN_SHARE of all episodes
   * (episode_counts, kept by triggers; compressed ones count too). One statement: episode.query's project check
   * and the plan were two reads of a query whose other statements are few.
   */
  const scope = (project: ProjectScope): ScopeRead => {
    if (project === undefined) return { known: true, plan: 'row' };
    const c = driver.get<{ known: number; mine: number | null; total: number }>(
      `SELECT ${project === null ? '1' : 'EXISTS (SELECT 1 FROM projects WHERE id = ?)'} AS known,
         (SELECT n FROM episode_counts WHERE project_key = ?) AS mine, (SELECT total(n) FROM episode_counts) AS total`,
      project === null ? [''] : [project, project],
    );
    if (!c) return { known: project === null, plan: 'row' };
    return { known: c.known === 1, plan: c.total > 0 && (c.mine ?? 0) < SET_PLAN_SHARE * c.total ? 'set' : 'row' };
  };
  return {
    scope,
    /**
     * bm25 (lower is better) of the best `limit` among the newest `window` full-text matches that are live (not
     * compressed) episodes of the asked scope. Throws when the index fails (the caller degrades to the scene lane).
     */
    ranked(match: string, project: ProjectScope, limit: number, window = RANK_WINDOW, plan: WalkPlan = scope(project).plan): { row: EpisodeScoreRow; rank: number }[] {
      const w = projectWhere(project);
      const s = projectWhere(project, 's');
      // One pass, newest first: the window is the first `window` matches of the asked scope's live episodes walked by
      // descending rowid (a lower bound `rowid >= ?` found by a second walk measured ~3× slower in FTS5 than walking
      // the same rows with a LIMIT). The scope and `compressed = 0` are tested inside the walk, before the LIMIT
      // counts the row: the other projects' and compressed matches are walked past, neither counted nor scored, so
      // they cannot push a project's own matches out. The episode row is looked up by rowid inside the walk (CROSS
      // JOIN keeps the index outside: left to itself the planner scanned the project's episodes instead); with the
      // 'set' plan only for the matches in the scope's set (`+` keeps the set a filter, not a rowid lookup per rid).
      // The lookup reads episodes_recall (migration 0016), which holds the scope and the scoring columns keyed by rid:
      // ~100 entries a page instead of ~8 whole rows (natively at 10,000 episodes −18 % of this statement). Without
      // INDEXED BY the planner (no ANALYZE statistics) prefers the table's own rowid lookup.
      const filter =
        plan === 'set'
          ? { sql: `+episodes_fts.rowid IN (SELECT s.rid FROM episodes s WHERE s.compressed = 0 AND ${s.sql})`, params: s.params }
          : { sql: `e.compressed = 0 AND ${w.sql}`, params: w.params };
      return driver
        .all<Row & { fts_rank: number }>(
          `SELECT ${BARE}, fts_rank FROM
             (SELECT ${COLUMNS}, bm25(episodes_fts, 1.0, 0.5) AS fts_rank
              FROM episodes_fts CROSS JOIN episodes e INDEXED BY ${RECALL_INDEX} ON e.rid = episodes_fts.rowid
              WHERE episodes_fts MATCH ? AND ${filter.sql} ORDER BY episodes_fts.rowid DESC LIMIT ?)
           ORDER BY fts_rank LIMIT ?`,
          [match, ...filter.params, window, limit],
        )
        .map(({ fts_rank, ...r }) => ({ row: toScoreRow(r), rank: fts_rank }));
    },
    /** The newest live episodes of a scene type (recall's time + scene type lane), scoring columns only. */
    recentOfScene(project: ProjectScope, sceneType: SceneType, limit: number): EpisodeScoreRow[] {
      const w = projectWhere(project);
      return driver
        .all<Row>(`SELECT ${COLUMNS} FROM episodes e WHERE ${w.sql} AND e.scene_type = ? AND e.compressed = 0 ORDER BY e.rid DESC LIMIT ?`, [...w.params, sceneType, limit])
        .map(toScoreRow);
    },
  };
}

export type EpisodeRecallQuery = ReturnType<typeof createEpisodeRecallQuery>;
