/**
 * The lifecycle pass's three phases as step functions for runInSlices (store/slices.ts): each step handles a
 * small batch inside the slice's transaction and moves a cursor, so a foreground call never waits behind more
 * than one slice (~20 ms), and a pass cut short resumes from what is stored.
 *
 *   decay     every episode and learned rule: the 003 score (domain/lifecycle/decay.ts) stored; crossing
 *             below 0.3 is noted in the ledger as "faded"; confirmed rules and pinned items are exempt (1)
 *   compress  uncompressed episodes below 0.3 or past the 180-day TTL, then those beyond a project's newest
 *             1,000: the template summary, candidates / input / kept text dropped, out of the text index
 *   purge     compressed episodes below 0.1 or past the 365-day TTL, then beyond 5,000 a project or 50,000
 *             in all (least recently used first); learned rules beyond 200 a scope (lowest confidence first)
 */
import { decayScore, ruleDecayScore } from '../../domain/lifecycle/decay';
import { compressedSummary } from '../../domain/lifecycle/compress';
import * as B from '../../domain/lifecycle/budgets';
import type { Clock } from '../../domain/clock';
import type { SqlDriver } from '../store/driver';
import { episodeLabel, type Ledger } from './ledger';
import type { LedgerReason, PhaseReport } from './types';

/**
 * Rows per step. A slice runs steps until its 20 ms budget has passed, so it overruns by up to one step; small
 * steps keep a slice near its budget (bench/results/speed-lifecycle.json reports each phase's longest slice).
 */
const BATCH = 20;
export const COMPRESS_BATCH = 5;

export interface PassDeps {
  driver: SqlDriver;
  clock: Clock;
  ledger: Ledger;
}

export interface Pass {
  step(): boolean;
  report: Omit<PhaseReport, 'phase' | 'slices' | 'longestSliceMs' | 'medianSliceMs' | 'ms'>;
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
  const step = (): boolean => {
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
    return rows.length === BATCH;
  };
  return { step, report };
}

interface FullRow {
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

/** Compresses one episode in place (003 压缩策略); the caller notes it in the ledger. */
export function compressEpisode(driver: SqlDriver, e: FullRow, now: number): void {
  const summary = compressedSummary({
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
  driver.run(
    `UPDATE episodes SET compressed = 1, summary = ?, candidates = '[]', input_summary = '', final_text = NULL, explicit = NULL, updated_at = ? WHERE rid = ?`,
    [summary, now, e.rid],
  );
  // Compressed episodes are not recalled: their text row goes.
  driver.run('DELETE FROM episodes_fts WHERE rowid = ?', [e.rid]);
}

const FULL = 'rid, id, kind, project_id, skill_id, scene_type, implicit, first_signal, valence, edit_distance, selected_index, candidates, explicit, uses, features, decay, created_at';

export function compressPass({ driver, clock, ledger }: PassDeps): Pass {
  const report = emptyReport();
  const now = clock.now();
  let overBudget: string[] | null = null;
  const compress = (rows: FullRow[], reasonOf: (e: FullRow) => LedgerReason) => {
    for (const e of rows) {
      compressEpisode(driver, e, now);
      report.compressed++;
      ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'compressed', reason: reasonOf(e), decay: e.decay, text: episodeLabel(e) });
    }
  };
  const step = (): boolean => {
    // Decayed below 0.3, or past the 180-day TTL ("到期进入压缩队列").
    const due = driver.all<FullRow>(
      `SELECT ${FULL} FROM episodes WHERE compressed = 0 AND pinned = 0 AND (decay < 0.3 OR created_at < ?) ORDER BY rid LIMIT ?`,
      [now - B.EPISODE_TTL_MS, COMPRESS_BATCH],
    );
    report.scanned += due.length;
    if (due.length) {
      compress(due, (e) => (e.decay < 0.3 ? 'decay' : 'ttl'));
      return true;
    }
    // 003 存储预算: a project's newest 1,000 uncompressed episodes stay; the rest (least recently used) are compressed.
    overBudget ??= driver
      .all<{ p: string | null }>('SELECT project_id AS p FROM episodes WHERE compressed = 0 GROUP BY project_id HAVING COUNT(*) > ?', [B.ACTIVE_EPISODES_PER_PROJECT])
      .map((r) => r.p ?? '');
    const project = overBudget[0];
    if (project === undefined) return false;
    // A batch at a time, like the rest: all of a project's excess in one step was one transaction of seconds
    // (1,500 episodes: a 2.8 s stall in the lifecycle benchmark). The compressed ones leave the uncompressed
    // set, so the next step's offset finds the next batch beyond the newest 1,000.
    const rows = driver.all<FullRow>(
      `SELECT ${FULL} FROM episodes WHERE compressed = 0 AND pinned = 0 AND COALESCE(project_id, '') = ?
       ORDER BY COALESCE(last_recalled_at, created_at) DESC, rid DESC LIMIT ? OFFSET ?`,
      [project, COMPRESS_BATCH, B.ACTIVE_EPISODES_PER_PROJECT],
    );
    if (rows.length < COMPRESS_BATCH) overBudget.shift();
    report.scanned += rows.length;
    compress(rows, () => 'budget');
    return true;
  };
  return { step, report };
}

/** Deletes episodes (their ledger rows say why); the text index follows by trigger. */
function deleteEpisodes(driver: SqlDriver, ledger: Ledger, rows: { rid: number; id: string; project_id: string | null; scene_type: string; skill_id: string; implicit: string; decay: number }[], reason: LedgerReason): number {
  for (const e of rows) {
    driver.run('DELETE FROM episodes WHERE rid = ?', [e.rid]);
    ledger.note({ itemType: 'episode', itemId: e.id, projectId: e.project_id, action: 'deleted', reason, decay: reason === 'decay' ? e.decay : null, text: episodeLabel(e) });
  }
  return rows.length;
}

const SLIM = 'rid, id, project_id, scene_type, skill_id, implicit, decay, created_at';
const LRU = 'ORDER BY COALESCE(last_recalled_at, created_at), recall_count, rid';

export function purgePass({ driver, clock, ledger }: PassDeps): Pass {
  const report = emptyReport();
  const now = clock.now();
  let stage = 0;
  type Slim = { rid: number; id: string; project_id: string | null; scene_type: string; skill_id: string; implicit: string; decay: number; created_at: number };
  const step = (): boolean => {
    if (stage === 0) {
      // 003 待淘汰 (< 0.1) and 压缩记忆 TTL=365 天.
      const rows = driver.all<Slim>(`SELECT ${SLIM} FROM episodes WHERE compressed = 1 AND pinned = 0 AND (decay < 0.1 OR created_at < ?) ORDER BY rid LIMIT ?`, [now - B.COMPRESSED_TTL_MS, BATCH]);
      report.scanned += rows.length;
      for (const e of rows) report.deleted += deleteEpisodes(driver, ledger, [e], e.decay < 0.1 ? 'decay' : 'ttl');
      if (rows.length === 0) stage = 1;
      return true;
    }
    if (stage === 1) {
      // Beyond 5,000 compressed in a project: least recently used first.
      const over = driver.get<{ p: string | null; n: number }>(
        'SELECT project_id AS p, COUNT(*) AS n FROM episodes WHERE compressed = 1 AND pinned = 0 GROUP BY project_id HAVING COUNT(*) > ? LIMIT 1',
        [B.COMPRESSED_PER_PROJECT],
      );
      if (!over) return ((stage = 2), true);
      const rows = driver.all<Slim>(`SELECT ${SLIM} FROM episodes WHERE compressed = 1 AND pinned = 0 AND COALESCE(project_id, '') = ? ${LRU} LIMIT ?`, [
        over.p ?? '', Math.min(BATCH, over.n - B.COMPRESSED_PER_PROJECT),
      ]);
      report.deleted += deleteEpisodes(driver, ledger, rows, 'budget');
      return true;
    }
    if (stage === 2) {
      const n = driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1 AND pinned = 0')?.n ?? 0;
      if (n <= B.COMPRESSED_IN_ALL) return ((stage = 3), true);
      const rows = driver.all<Slim>(`SELECT ${SLIM} FROM episodes WHERE compressed = 1 AND pinned = 0 ${LRU} LIMIT ?`, [Math.min(BATCH, n - B.COMPRESSED_IN_ALL)]);
      report.deleted += deleteEpisodes(driver, ledger, rows, 'budget');
      return true;
    }
    if (stage === 3) {
      report.deleted += evictRules(driver, ledger, now);
      stage = 4;
      return true;
    }
    ledger.prune(now - B.LEDGER_KEEP_MS);
    return false;
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
