/**
 * The lifecycle pass's three phases as step functions for runInSlices (store/slices.ts): each step handles a
 * small batch inside the slice's transaction and moves a cursor, so a foreground call never waits behind more
 * than one slice (~20 ms), and a pass cut short resumes from what is stored.
 *
 *   decay     every episode and learned rule: the 003 score (domain/lifecycle/decay.ts) stored; crossing
 *             below 0.3 is noted in the ledger as "faded"; confirmed rules and pinned items are exempt (1);
 *             then, when enough was recorded since the last time, episodes_fts merged into one segment
 *   compress  uncompressed episodes below 0.3 or past the 180-day TTL, then those beyond a project's newest
 *             1,000: the template summary, candidates / input / kept text dropped, out of the text index
 *   purge     compressed episodes below 0.1 or past the 365-day TTL, then beyond 5,000 a project or 50,000
 *             in all (least recently used first); learned rules beyond 200 a scope (lowest confidence first)
 */
import { decayScore, ruleDecayScore } from '../../domain/lifecycle/decay';
import * as ftsMerge from '../store/fts-merge';
import { compressedSummary } from '../../domain/lifecycle/compress';
import * as B from '../../domain/lifecycle/budgets';
import type { Clock } from '../../domain/clock';
import type { SqlDriver } from '../store/driver';
import { episodeLabel, type Ledger } from './ledger';
import type { LedgerReason, PhaseReport } from './types';
import { vacuumStep } from './vacuum';

/**
 * Rows per decay step. A slice runs steps until its 20 ms budget has passed, so it overruns by up to one step;
 * small steps keep a slice near its budget (bench/results/speed-lifecycle.json reports each phase's longest
 * slice). Compression takes one episode a step, purging a few; no step sorts or re-reads more than its rows.
 */
const BATCH = 10;

export interface PassDeps {
  driver: SqlDriver;
  clock: Clock;
  ledger: Ledger;
}

export interface Pass {
  step(): boolean;
  report: Omit<PhaseReport, 'phase' | 'slices' | 'longestSliceMs' | 'medianSliceMs' | 'slowSlices' | 'ms'>;
}

const emptyReport = () => ({ scanned: 0, faded: 0, compressed: 0, deleted: 0 });

interface DecayRow {
  rid: number;
  id: string;
  project_id: string | null;
  scene_type: string;
  skill_id: string;
  implicit: string;
  importance: number;
  recall_count: number;
  last_recalled_at: number | null;
  created_at: number;
  compressed: number;
  pinned: number;
  decay: number;
}

export function decayPass({ driver, clock, ledger }: PassDeps): Pass {
  const report = emptyReport();
  const now = clock.now();
  let episodeCursor = 0;
  let ruleCursor = 0;
  let rulesDone = false;
  let episodesDone = false;
  // Last, episodes_fts merged into one segment when enough was written since the last time (fts-merge.ts's
  // createFullMerge: a bounded piece a step, resumed where a pass cut short left it) — episode recall's
  // ranking statement reads every segment of it on each query (issue 17).
  const fullMerge = ftsMerge.createFullMerge(driver, 'episodes_fts');
  const step = (): boolean => {
    if (episodesDone) return fullMerge.step();
    if (!rulesDone) {
      const rules = driver.all<{ rid: number; id: string; project_id: string | null; rule: string; confidence: number; user_confirmed: number; source: string; pinned: number; decay: number; updated_at: number }>(
        "SELECT rid, id, project_id, rule, confidence, user_confirmed, source, pinned, decay, updated_at FROM semantic_rules WHERE status = 'active' AND rid > ? ORDER BY rid LIMIT ?",
        [ruleCursor, BATCH],
      );
      for (const r of rules) {
        report.scanned++;
        // 003 免衰减: confirmed rules (and the user's own, and pinned ones) skip the computation; confidence is never touched.
        const score = ruleDecayScore({ updatedAt: r.updated_at, confidence: r.confidence, userConfirmed: r.user_confirmed === 1, source: r.source === 'user' ? 'user' : 'learned', pinned: r.pinned === 1 }, now);
        if (Math.abs(score - r.decay) > 1e-9) driver.run('UPDATE semantic_rules SET decay = ? WHERE rid = ?', [score, r.rid]);
        if (r.decay >= 0.3 && score < 0.3) {
          report.faded++;
          ledger.note({ itemType: 'rule', itemId: r.id, projectId: r.project_id, action: 'faded', reason: 'decay', decay: score, text: r.rule });
        }
      }
      if (rules.length) ruleCursor = rules[rules.length - 1]!.rid;
      rulesDone = rules.length < BATCH;
      return true;
    }
    const rows = driver.all<DecayRow>(
      `SELECT rid, id, project_id, scene_type, skill_id, implicit, importance, recall_count, last_recalled_at, created_at, compressed, pinned, decay
       FROM episodes WHERE rid > ? ORDER BY rid LIMIT ?`,
      [episodeCursor, BATCH],
    );
    for (const e of rows) {
      report.scanned++;
      const score = decayScore({ createdAt: e.created_at, lastRecalledAt: e.last_recalled_at, recallCount: e.recall_count, importance: e.importance, exempt: e.pinned === 1 }, now);
      if (Math.abs(score - e.decay) > 1e-9) driver.run('UPDATE episodes SET decay = ? WHERE rid = ?', [score, e.rid]);
      if (e.compressed === 0 && e.decay >= 0.3 && score < 0.3) {
        report.faded++;
        ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'faded', reason: 'decay', decay: score, text: episodeLabel(e) });
      }
    }
    if (rows.length) episodeCursor = rows[rows.length - 1]!.rid;
    episodesDone = rows.length < BATCH;
    return true;
  };
  return { step, report };
}

export interface FullRow {
  rid: number;
  id: string;
  kind: string;
  project_id: string | null;
  skill_id: string;
  scene_type: string;
  implicit: string;
  first_signal: string | null;
  valence: number;
  edit_distance: number | null;
  selected_index: number;
  candidates: string;
  explicit: string | null;
  uses: number;
  features: string;
  decay: number;
  created_at: number;
}

/**
 * FTS5 merges the text index's segments when a transaction that changed it commits ("automerge"): with the
 * compression's deletes, one COMMIT merged for 209 ms (bench/speed/lifecycle-steps.ts, native). The compress
 * pass paces the merging as import apply and the reindex do (store/fts-merge.ts's createMergePacer): automerge
 * off (the engine keeps it off for good, issue 19), one step in MERGE_EVERY a bounded merge of FTS_MERGE_PAGES
 * pages, a merge a step at its end until nothing is left (FTS5's incremental 'merge', which merges where
 * 'usermerge' segments share a level, as automerge would).
 */
export { FTS_AUTOMERGE_ENGINE, FTS_MERGE_PAGES } from '../store/fts-merge';
/** Compress steps between two bounded merges while the pass runs (each step writes one episode's rows at most). */
const MERGE_EVERY = 32;
/** The template summary (domain/lifecycle/compress.ts) of a stored episode. */
export function templateSummary(e: FullRow): string {
  return compressedSummary({
    kind: e.kind,
    skillUsed: e.skill_id,
    sceneType: e.scene_type,
    implicit: e.implicit,
    firstSignal: e.first_signal,
    valence: e.valence,
    editDistance: e.edit_distance,
    selectedIndex: e.selected_index,
    candidateCount: (JSON.parse(e.candidates) as unknown[]).length,
    explicit: e.explicit,
    uses: e.uses,
    createdAt: e.created_at,
    features: { candidates: [], ...(JSON.parse(e.features) as object) },
  });
}

/**
 * Compresses one episode in place (003 压缩策略); the caller notes it in the ledger. `summary`: the model's
 * (model-summaries.ts), asked for before the transaction; the template otherwise.
 */
export function compressEpisode(driver: SqlDriver, e: FullRow, now: number, summary: string = templateSummary(e)): void {
  driver.run(
    `UPDATE episodes SET compressed = 1, summary = ?, candidates = '[]', input_summary = '', final_text = NULL, explicit = NULL, updated_at = ? WHERE rid = ?`,
    [summary, now, e.rid],
  );
  // Compressed episodes are not recalled: their text row goes.
  driver.run('DELETE FROM episodes_fts WHERE rowid = ?', [e.rid]);
}

export const FULL = 'rid, id, kind, project_id, skill_id, scene_type, implicit, first_signal, valence, edit_distance, selected_index, candidates, explicit, uses, features, decay, created_at';
const LRU_KEY = 'COALESCE(last_recalled_at, created_at)';

/**
 * The rows a budget stage will take, chosen once (one sort of the project's rows, rids and LRU keys only) and
 * then taken one per step by rid. Re-sorting the project on every step was what made a compression slice run
 * to 182 ms in Chromium (bench/speed/lifecycle-steps.ts: 98 % of the phase's time in that SELECT). A row that was
 * recalled, compressed, pinned or deleted since it was chosen no longer matches its key and is skipped.
 */
type Victim = { rid: number; key: number };

/** Rowids a window of the table holds at most: what one step may scan to find the next rows a stage wants. */
export const RID_WINDOW = 256;

/**
 * The rids matching `where`, found a window of RID_WINDOW rowids at a time (a rowid range: bounded work whatever
 * the table holds, where `WHERE rid > ? AND … ORDER BY rid LIMIT n` let SQLite pick the lifecycle index and sort
 * every match on each step). `next()`: a rid to handle, `undefined` when this step only scanned a window, `null`
 * at the end. `where` is trusted SQL (numbers only); `+compressed` keeps the rowid range the plan.
 */
function ridWindows(driver: SqlDriver, where: string) {
  const last = driver.get<{ n: number | null }>('SELECT MAX(rid) AS n FROM episodes')?.n ?? 0;
  let cursor = 0;
  let queue: number[] = [];
  return {
    next(): number | null | undefined {
      const rid = queue.shift();
      if (rid !== undefined) return rid;
      if (cursor >= last) return null;
      queue = driver.all<{ rid: number }>(`SELECT rid FROM episodes WHERE rid > ? AND rid <= ? AND ${where} ORDER BY rid`, [cursor, cursor + RID_WINDOW]).map((r) => r.rid);
      cursor += RID_WINDOW;
      return undefined;
    },
  };
}

export function compressPass({ driver, clock, ledger }: PassDeps): Pass {
  const report = emptyReport();
  const now = clock.now();
  const due = ridWindows(driver, `+compressed = 0 AND pinned = 0 AND (decay < 0.3 OR created_at < ${now - B.EPISODE_TTL_MS})`);
  let dueDone = false;
  const pacer = ftsMerge.createMergePacer(driver, ['episodes_fts'], { every: MERGE_EVERY });
  let overBudget: (string | null)[] | null = null;
  let victims: Victim[] = [];
  const compressOne = (e: FullRow, reason: LedgerReason) => {
    compressEpisode(driver, e, now);
    report.compressed++;
    ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'compressed', reason, decay: e.decay, text: episodeLabel(e) });
  };
  let merging = false;
  let vacuuming = false;
  const step = (): boolean => {
    // Last, the pages the dropped candidates and text rows freed go back, a bounded piece a step.
    if (vacuuming) return vacuumStep(driver);
    if (merging) {
      // The text index's segments, merged FTS_MERGE_PAGES pages a step, then left to FTS5 again.
      if (!pacer.finish()) vacuuming = true;
      return true;
    }
    // Automerge off (the first step); meanwhile one step in MERGE_EVERY is a bounded merge instead of an
    // episode, so the segments the foreground's writes add do not pile up (into a crisis merge in someone's
    // COMMIT) while automerge is off.
    if (pacer.during('episodes_fts')) return true;
    if (!dueDone) {
      // Decayed below 0.3, or past the 180-day TTL ("到期进入压缩队列"): one episode a step.
      const next = due.next();
      if (next === null) return ((dueDone = true), true);
      if (next === undefined) return true;
      const e = driver.get<FullRow>(`SELECT ${FULL} FROM episodes WHERE rid = ? AND compressed = 0 AND pinned = 0 AND (decay < 0.3 OR created_at < ?)`, [next, now - B.EPISODE_TTL_MS]);
      if (e) {
        report.scanned++;
        compressOne(e, e.decay < 0.3 ? 'decay' : 'ttl');
      }
      return true;
    }
    // 003 存储预算: a project's newest 1,000 uncompressed episodes stay; the rest (least recently used) are compressed.
    overBudget ??= driver
      .all<{ p: string | null }>('SELECT project_id AS p FROM episodes WHERE compressed = 0 GROUP BY project_id HAVING COUNT(*) > ?', [B.ACTIVE_EPISODES_PER_PROJECT])
      .map((r) => r.p);
    const v = victims.shift();
    if (!v) {
      if (overBudget.length === 0) return ((merging = true), true);
      const project = overBudget.shift()!;
      victims = driver.all<Victim>(
        `SELECT rid, ${LRU_KEY} AS key FROM episodes WHERE compressed = 0 AND pinned = 0 AND project_id IS ? ORDER BY key DESC, rid DESC LIMIT -1 OFFSET ?`,
        [project, B.ACTIVE_EPISODES_PER_PROJECT],
      );
      return true;
    }
    const e = driver.get<FullRow>(`SELECT ${FULL} FROM episodes WHERE rid = ? AND compressed = 0 AND pinned = 0 AND ${LRU_KEY} = ?`, [v.rid, v.key]);
    if (e) {
      report.scanned++;
      compressOne(e, 'budget');
    }
    return true;
  };
  return { step, report };
}

type Slim = { rid: number; id: string; project_id: string | null; scene_type: string; skill_id: string; implicit: string; decay: number; created_at: number };

/** Deletes one episode (its ledger row says why); the text index follows by trigger. */
function deleteEpisode(driver: SqlDriver, ledger: Ledger, e: Slim, reason: LedgerReason): void {
  driver.run('DELETE FROM episodes WHERE rid = ?', [e.rid]);
  ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'deleted', reason, decay: reason === 'decay' ? e.decay : null, text: episodeLabel(e) });
}

const SLIM = 'rid, id, project_id, scene_type, skill_id, implicit, decay, created_at';
const LRU = `ORDER BY ${LRU_KEY}, recall_count, rid`;
/** Rows a purge step deletes: a handful, so a slice checks its budget often. */
const PURGE_BATCH = 5;

export function purgePass({ driver, clock, ledger }: PassDeps): Pass {
  const report = emptyReport();
  const now = clock.now();
  let stage = 0;
  const ttl = now - B.COMPRESSED_TTL_MS;
  const expired = ridWindows(driver, `+compressed = 1 AND pinned = 0 AND (decay < 0.1 OR created_at < ${ttl})`);
  let projects: { p: string | null; n: number }[] | null = null;
  let victims: Victim[] = [];
  /** Deletes the next few chosen victims that still qualify; false when none were left. */
  const takeVictims = (): boolean => {
    if (victims.length === 0) return false;
    for (const v of victims.splice(0, PURGE_BATCH)) {
      const e = driver.get<Slim>(`SELECT ${SLIM} FROM episodes WHERE rid = ? AND compressed = 1 AND pinned = 0 AND ${LRU_KEY} = ?`, [v.rid, v.key]);
      if (!e) continue;
      deleteEpisode(driver, ledger, e, 'budget');
      report.deleted++;
    }
    return true;
  };
  const step = (): boolean => {
    if (stage === 0) {
      // 003 待淘汰 (< 0.1) and 压缩记忆 TTL=365 天: a few a step, found a rowid window at a time.
      for (let i = 0; i < PURGE_BATCH; i++) {
        const next = expired.next();
        if (next === null) return ((stage = 1), true);
        if (next === undefined) return true;
        const e = driver.get<Slim>(`SELECT ${SLIM} FROM episodes WHERE rid = ? AND compressed = 1 AND pinned = 0 AND (decay < 0.1 OR created_at < ?)`, [next, ttl]);
        if (!e) continue;
        report.scanned++;
        deleteEpisode(driver, ledger, e, e.decay < 0.1 ? 'decay' : 'ttl');
        report.deleted++;
      }
      return true;
    }
    if (stage === 1) {
      // Beyond 5,000 compressed in a project: least recently used first, chosen once per project.
      if (takeVictims()) return true;
      projects ??= driver.all<{ p: string | null; n: number }>(
        'SELECT project_id AS p, COUNT(*) AS n FROM episodes WHERE compressed = 1 AND pinned = 0 GROUP BY project_id HAVING COUNT(*) > ?',
        [B.COMPRESSED_PER_PROJECT],
      );
      const over = projects.shift();
      if (!over) return ((stage = 2), true);
      victims = driver.all<Victim>(`SELECT rid, ${LRU_KEY} AS key FROM episodes WHERE compressed = 1 AND pinned = 0 AND project_id IS ? ${LRU} LIMIT ?`, [
        over.p, over.n - B.COMPRESSED_PER_PROJECT,
      ]);
      return true;
    }
    if (stage === 2) {
      // Beyond 50,000 compressed in all: chosen once.
      const n = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1 AND pinned = 0')?.n ?? 0;
      victims = n > B.COMPRESSED_IN_ALL ? driver.all<Victim>(`SELECT rid, ${LRU_KEY} AS key FROM episodes WHERE compressed = 1 AND pinned = 0 ${LRU} LIMIT ?`, [n - B.COMPRESSED_IN_ALL]) : [];
      stage = 3;
      return true;
    }
    if (stage === 3) {
      if (takeVictims()) return true;
      report.deleted += evictRules(driver, ledger, now);
      stage = 4;
      return true;
    }
    if (stage === 4) {
      ledger.prune(now - B.LEDGER_KEEP_MS);
      stage = 5;
      return true;
    }
    // What purging freed goes back to the file system, a bounded piece a step.
    return vacuumStep(driver);
  };
  return { step, report };
}

/** 003 语义记忆: at most 200 active rules a scope; the lowest-confidence learned ones go, confirmed never. */
export function evictRules(driver: SqlDriver, ledger: Ledger, now: number): number {
  let n = 0;
  const scopes = driver.all<{ scope: string; p: string; total: number }>(
    "SELECT scope, COALESCE(project_id, '') AS p, COUNT(*) AS total FROM semantic_rules WHERE status = 'active' GROUP BY scope, COALESCE(project_id, '') HAVING COUNT(*) > ?",
    [B.RULES_PER_SCOPE],
  );
  for (const s of scopes) {
    const victims = driver.all<{ id: string; project_id: string | null; rule: string; confidence: number; version: number }>(
      `SELECT id, project_id, rule, confidence, version FROM semantic_rules WHERE status = 'active' AND scope = ? AND COALESCE(project_id, '') = ?
       AND user_confirmed = 0 AND pinned = 0 AND source = 'learned' ORDER BY confidence, updated_at, rid LIMIT ?`,
      [s.scope, s.p, s.total - B.RULES_PER_SCOPE],
    );
    for (const r of victims) {
      driver.run("UPDATE semantic_rules SET status = 'deleted', updated_at = ? WHERE id = ?", [now, r.id]);
      driver.run("INSERT INTO rule_history (rule_id, project_id, action, actor, before, episodes, created_at) VALUES (?, ?, 'deleted', 'system', ?, '[]', ?)", [
        r.id, r.project_id, JSON.stringify({ rule: r.rule, confidence: r.confidence, version: r.version }), now,
      ]);
      ledger.note({ itemType: 'rule', itemId: r.id, projectId: r.project_id, action: 'deleted', reason: 'budget', decay: null, text: r.rule });
      n++;
    }
  }
  return n;
}
