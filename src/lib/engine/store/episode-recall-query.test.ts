/**
 * Episode recall's reads at scale (issue 17's benchmark goal): bm25 ranks only the newest matches, candidates carry
 * only the scoring columns, and recording a recall is one statement for the whole list.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { memoryLogger } from '../../domain/log';
import { T0 } from '../testing';
import type { SqlDriver, SqlParams } from './driver';
import { createEpisodeRecallQuery, RANK_WINDOW, RECALL_INDEX, SET_PLAN_SHARE } from './episode-recall-query';
import { EPISODE_FTS_INSERT, episodeFtsColumns } from './fts-columns';
import { migrate } from './migrate';
import { migrations } from './migrations';
import { loadSqlite3, openWasmDatabase } from './open-wasm';
import { createEpisodeRepo } from './episode-repo';
import { RECALL_QUERY_TERMS } from '../episodes/recall';

async function setup() {
  const t = await createTestEngine();
  const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
  const other = expectOk(await t.engine.call('project.create', { name: 'q' }));
  return { t, project, other };
}

/**
 * The statement's former shape (before d21): bm25 over the whole window, then the scope and compression filter. The
 * reference the new shape must answer exactly (rows and ranks) for a named project.
 */
const rankedBefore = (t: TestEngine, match: string, projectId: string, limit: number, window = RANK_WINDOW) =>
  t.driver
    .all<{ id: string; fts_rank: number }>(
      `SELECT e.id, m.fts_rank FROM
         (SELECT rowid AS rid, bm25(episodes_fts, 1.0, 0.5) AS fts_rank FROM episodes_fts WHERE episodes_fts MATCH ? ORDER BY rowid DESC LIMIT ?) m
       CROSS JOIN episodes e ON e.rid = m.rid
       WHERE e.compressed = 0 AND e.project_id = ? ORDER BY m.fts_rank LIMIT ?`,
      [match, window, projectId, limit],
    )
    .map((r) => ({ id: r.id, rank: r.fts_rank }));

/** How many times each statement ran (FTS5's own statements on its shadow tables too) while `f` ran. */
async function countStatements<T>(t: TestEngine, f: () => T): Promise<{ out: T; runs: (pattern: RegExp) => number; seen: string[] }> {
  const sqlite3 = await loadSqlite3();
  // Not in the package's typings: sqlite3_trace_v2(db, mask, callback(type, ctx, stmt, sql) | 0, ctx).
  const capi = sqlite3.capi as unknown as {
    sqlite3_trace_v2(db: number, mask: number, cb: ((type: number, ctx: number, stmt: number, sql: number) => number) | 0, ctx: 0): number;
    SQLITE_TRACE_STMT: number;
  };
  const db = t.db.pointer;
  if (db === undefined) throw new Error('the test database is closed');
  const seen: string[] = [];
  capi.sqlite3_trace_v2(db, capi.SQLITE_TRACE_STMT, (_type, _ctx, _stmt, sql) => {
    seen.push(sqlite3.wasm.cstrToJs(sql) ?? '');
    return 0;
  }, 0);
  try {
    const out = f();
    return { out, runs: (pattern) => seen.filter((s) => pattern.test(s)).length, seen };
  } finally {
    capi.sqlite3_trace_v2(db, 0, 0, 0);
  }
}

const record = async (t: TestEngine, projectId: string | null, text: string) => {
  const e = expectOk(await t.engine.call('episode.record', { skillId: 'continue', ...(projectId === null ? {} : { projectId }), input: text, candidates: [text], selectedIndex: 0 })).episode;
  t.clock.advance(1_000);
  return e;
};

describe('episode recall reads (store/episode-recall-query.ts)', () => {
  it('ranks only the newest `window` full-text matches: an older match beyond the window is not a text candidate', async () => {
    const { t, project } = await setup();
    // The oldest is the best text match (the word three times); four newer ones mention it once.
    const oldest = await record(t, project.id, 'lighthouse lighthouse lighthouse keeper');
    const newer = [];
    for (let i = 0; i < 4; i++) newer.push((await record(t, project.id, `the ${['red', 'blue', 'green', 'grey'][i]} lighthouse by the harbour wall`)).id);
    await record(t, project.id, 'nothing about the sea here');
    const q = createEpisodeRecallQuery(t.driver);
    const all = q.ranked('lighthouse', project.id, 60);
    expect(all[0]?.row.id).toBe(oldest.id);
    expect(all).toHaveLength(5);
    const windowed = q.ranked('lighthouse', project.id, 60, 3);
    expect(windowed.map((h) => h.row.id).sort()).toEqual(newer.slice(1).sort());
    // A window wider than the matches ranks them all.
    expect(q.ranked('lighthouse', project.id, 60, 50)).toHaveLength(5);
    expect(RANK_WINDOW).toBeGreaterThanOrEqual(100);
  });

  it('keeps the project scope, leaves compressed episodes out, and carries the scoring columns only', async () => {
    const { t, project, other } = await setup();
    const mine = await record(t, project.id, 'a lantern in the rain');
    const theirs = await record(t, other.id, 'a lantern in the fog');
    const gone = await record(t, project.id, 'a lantern, long forgotten');
    t.driver.run("UPDATE episodes SET compressed = 1 WHERE id = ?", [gone.id]);
    const q = createEpisodeRecallQuery(t.driver);
    expect(q.ranked('lantern', project.id, 60).map((h) => h.row.id)).toEqual([mine.id]);
    expect(q.ranked('lantern', undefined, 60).map((h) => h.row.id).sort()).toEqual([mine.id, theirs.id].sort());
    expect(q.ranked('lantern', null, 60)).toEqual([]);
    const [hit] = q.ranked('lantern', project.id, 60);
    expect(Object.keys(hit?.row ?? {}).sort()).toEqual(['createdAt', 'id', 'importance', 'lastRecalledAt', 'pinned', 'recallCount', 'rid', 'runId', 'sceneType'].sort());
    expect(q.recentOfScene(project.id, mine.sceneType, 60).map((r) => r.id)).toEqual([mine.id]);
    const everyProject = q.recentOfScene(undefined, mine.sceneType, 60).map((r) => r.id);
    expect(everyProject).toContain(mine.id);
    expect(everyProject).not.toContain(gone.id);
  });

  it("a project's recall is the same with many other projects' matching episodes among its own, and its window counts its own live matches only", async () => {
    const texts = ['the lighthouse keeper climbs the stairs', 'a storm over the lighthouse', 'the keeper mends the lamp at night', 'lighthouse lighthouse on the cliff', 'tea with the keeper'];
    const alone = await setup();
    for (const text of texts) await record(alone.t, alone.project.id, text);
    const crowded = await setup();
    const others = [];
    for (let i = 0; i < 12; i++) others.push(expectOk(await crowded.t.engine.call('project.create', { name: `other ${i}` })).id);
    const mine = [];
    for (const [i, text] of texts.entries()) {
      // Before each of the project's episodes, three others' that match the same words (newer ones after it too).
      for (let k = 0; k < 3; k++) await record(crowded.t, others[(i * 3 + k) % others.length]!, `${['the', 'a', 'one'][k]} lighthouse keeper of project ${i}-${k}`);
      mine.push((await record(crowded.t, crowded.project.id, text)).id);
    }
    for (let k = 0; k < 8; k++) await record(crowded.t, others[k]!, `the keeper of the lighthouse, later ${k}`);
    // And a newer match of the project's own that is compressed (still in the text index, as after a reindex).
    const gone = await record(crowded.t, crowded.project.id, 'the lighthouse keeper, compressed');
    crowded.t.driver.run('UPDATE episodes SET compressed = 1 WHERE id = ?', [gone.id]);
    const q = { sceneType: 'narration' as const, text: 'lighthouse keeper' };
    const ids = async (s: Awaited<ReturnType<typeof setup>>) =>
      expectOk(await s.t.engine.call('episode.query', { projectId: s.project.id, ...q })).items.map((i) => texts.indexOf(i.episode.inputContext));
    const before = await ids(alone);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(await ids(crowded)).toEqual(before);
    const recall = createEpisodeRecallQuery(crowded.t.driver);
    const ranked = (window: number) => recall.ranked('lighthouse OR keeper', crowded.project.id, 60, window);
    // The ranks are bm25 over the whole index, as the former statement gave them for the rows both windows hold.
    expect(ranked(RANK_WINDOW).map((h) => ({ id: h.row.id, rank: h.rank }))).toEqual(rankedBefore(crowded.t, 'lighthouse OR keeper', crowded.project.id, 60));
    // A window of 3 holds the project's 3 newest live matches — not the compressed one, not the other projects' 8
    // newer ones (whose window of 13 held 2 of the project's, and of 5 none).
    expect(ranked(3).map((h) => h.row.id).sort()).toEqual(mine.slice(2).sort());
    expect(ranked(5).map((h) => h.row.id).sort()).toEqual([...mine].sort());
    expect(rankedBefore(crowded.t, 'lighthouse OR keeper', crowded.project.id, 60, 5)).toEqual([]);
  });

  it("bm25 scores only the asked project's live matches in the window, not the other projects' or compressed ones (FTS5's size reads counted)", async () => {
    const { t, project, other } = await setup();
    const mine = [];
    for (let i = 0; i < 4; i++) {
      mine.push(await record(t, project.id, `the lantern in the rain ${i}`));
      for (let k = 0; k < 5; k++) await record(t, other.id, `a lantern in the fog ${i}-${k}`);
    }
    t.driver.run('UPDATE episodes SET compressed = 1 WHERE id = ?', [mine[0]!.id]);
    const recall = createEpisodeRecallQuery(t.driver);
    // bm25 reads each scored row's token counts from the index's docsize table, one statement run per row.
    const docsize = /_docsize/;
    const mineOnly = await countStatements(t, () => recall.ranked('lantern', project.id, 60));
    expect(mineOnly.out.map((h) => h.row.id).sort()).toEqual(mine.slice(1).map((e) => e.id).sort());
    expect(mineOnly.runs(docsize)).toBe(3);
    // The former statement scored all 24 matches of the window to return the same 3.
    const former = await countStatements(t, () => rankedBefore(t, 'lantern', project.id, 60));
    expect(former.out.map((h) => h.id)).toEqual(mineOnly.out.map((h) => h.row.id));
    expect(former.runs(docsize)).toBe(24);
    // Every episode in scope (no project named): every live match is scored, the compressed one is not.
    expect((await countStatements(t, () => recall.ranked('lantern', undefined, 60))).runs(docsize)).toBe(23);
  });

  it("a small scope's walk tests matches against its set of live rids, a large one looks each row up: the same rows and ranks either way", async () => {
    const { t, project, other } = await setup();
    const big = [];
    for (let i = 0; i < 12; i++) big.push(await record(t, other.id, `the lighthouse keeper of the big novel ${i}`));
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await record(t, project.id, `a lighthouse in the small story ${i}`));
    const none = await record(t, null, 'a lighthouse of no project');
    t.driver.run('UPDATE episodes SET compressed = 1 WHERE id IN (?, ?)', [mine[0]!.id, big[11]!.id]);
    const recall = createEpisodeRecallQuery(t.driver);
    const setPlan = /IN \(SELECT s\.rid FROM episodes s WHERE s\.compressed = 0/;
    // 3 and 1 of 16 episodes are under SET_PLAN_SHARE; 12 of 16 are not.
    expect(3 / 16).toBeLessThan(SET_PLAN_SHARE);
    for (const [scope, expected, plan] of [
      [project.id, mine.slice(1), 'set'],
      [null, [none], 'set'],
      [other.id, big.slice(0, 11), 'row'],
    ] as const) {
      const chosen = await countStatements(t, () => recall.ranked('lighthouse', scope, 60));
      expect(chosen.runs(setPlan)).toBe(plan === 'set' ? 1 : 0);
      expect(chosen.out.map((h) => h.row.id).sort()).toEqual(expected.map((e) => e.id).sort());
      for (const window of [RANK_WINDOW, 2]) {
        const row = recall.ranked('lighthouse', scope, 60, window, 'row');
        expect(row.length).toBe(Math.min(window, expected.length));
        expect(recall.ranked('lighthouse', scope, 60, window, 'set')).toEqual(row);
      }
    }
    // The set stays a filter on the newest-first walk: FTS5 walks by rowid descending, the set is read from an index.
    const [sql] = (await countStatements(t, () => recall.ranked('lighthouse', project.id, 60))).seen.filter((s) => setPlan.test(s));
    const plan = t.driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).map((r) => r.detail);
    expect(plan).toEqual(expect.arrayContaining([expect.stringMatching(/^SCAN episodes_fts VIRTUAL TABLE INDEX 192:/), expect.stringMatching(/COVERING INDEX episodes_lifecycle/)]));
  });

  it('episode.query still returns whole episodes with why, read after scoring', async () => {
    const { t, project } = await setup();
    const e = await record(t, project.id, 'the lighthouse keeper climbs the stairs');
    const res = expectOk(await t.engine.call('episode.query', { projectId: project.id, text: 'lighthouse keeper' }));
    expect(res.items[0]?.episode).toEqual(expectOk(await t.engine.call('episode.get', { id: e.id })));
    expect(res.items[0]?.why.matchedTerms).toEqual(expect.arrayContaining(['lighthouse', 'keeper']));
  });

  it('episode.query asks for whole words (no prefix): inflections still meet through the stemmer, a longer word that merely starts the same does not', async () => {
    const { t, project } = await setup();
    const inflected = await record(t, project.id, 'the keepers were climbing the lighthouse stairs');
    const longer = await record(t, project.id, 'a keepsake box with a climbable rope');
    const res = expectOk(await t.engine.call('episode.query', { projectId: project.id, text: 'keeper climbs' }));
    const ids = res.items.map((i) => i.episode.id);
    expect(ids).toContain(inflected.id);
    expect(ids).not.toContain(longer.id);
    expect(res.items[0]?.why.similarity).toBe(1);
  });

  it('episode.query reads at most RECALL_QUERY_TERMS words of a long passage, the strongest first (identifiers before plain words)', async () => {
    const { t, project } = await setup();
    const late = await record(t, project.id, 'the cartographer unrolled the map');
    const ident = await record(t, project.id, 'renamed processPayment before the release');
    // Twenty plain words, then one the first episode shares, then an identifier the second one holds.
    const filler = Array.from({ length: 20 }, (_, i) => `filler${String.fromCharCode(97 + i)}`).join(' ');
    const res = expectOk(await t.engine.call('episode.query', { projectId: project.id, text: `${filler} cartographer processPayment` }));
    const ids = res.items.map((i) => i.episode.id);
    expect(RECALL_QUERY_TERMS).toBeLessThan(21);
    expect(ids).toContain(ident.id);
    expect(ids).not.toContain(late.id);
    // The same word within the budget is found.
    const near = expectOk(await t.engine.call('episode.query', { projectId: project.id, text: 'cartographer' }));
    expect(near.items.map((i) => i.episode.id)).toContain(late.id);
  });

  it('markRecalled: each listed episode once (duplicates too), recall count, time and decay score in one update', async () => {
    const { t, project } = await setup();
    const a = await record(t, project.id, 'first');
    const b = await record(t, project.id, 'second');
    const c = await record(t, project.id, 'third');
    t.driver.run('UPDATE episodes SET decay = 0.5');
    t.clock.advance(60_000);
    const repo = createEpisodeRepo({ driver: t.driver, clock: t.clock, ids: () => 'x' });
    expect(repo.markRecalled([a.id, b.id, a.id])).toBe(2);
    expect(repo.markRecalled([])).toBe(0);
    for (const id of [a.id, b.id]) {
      const e = repo.mustFind(id);
      expect(e).toMatchObject({ recallCount: 1, lastRecalledAt: t.clock.now() });
      expect(e.decay).toBeGreaterThan(0.5);
    }
    expect(repo.mustFind(c.id)).toMatchObject({ recallCount: 0, lastRecalledAt: null, decay: 0.5 });
  });

  it(`the walk reads each match's scope and scoring columns from the covering index ${RECALL_INDEX}, never the episode row, for every kind of scope and plan`, async () => {
    const { t, project } = await setup();
    await record(t, project.id, 'the lighthouse keeper');
    await record(t, null, 'a lighthouse of no project');
    // Each ranked statement as it is run (text and parameters), then its plan for those parameters.
    const runs: { sql: string; params: SqlParams | undefined }[] = [];
    const spy: SqlDriver = { ...t.driver, all: (sql, params) => (runs.push({ sql, params }), t.driver.all(sql, params)) };
    const recall = createEpisodeRecallQuery(spy);
    for (const scope of [project.id, null, undefined]) for (const plan of ['row', 'set'] as const) recall.ranked('lighthouse', scope, 60, RANK_WINDOW, plan);
    expect(runs).toHaveLength(6);
    for (const { sql, params } of runs) {
      const plan = t.driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((r) => r.detail);
      // The episode (alias e) is found in the index by rid; no step reads the episodes table by its rowid.
      expect(plan).toContainEqual(expect.stringMatching(new RegExp(`^SEARCH e USING COVERING INDEX ${RECALL_INDEX} \\(rid=\\?`)));
      expect(plan.filter((d) => /INTEGER PRIMARY KEY/.test(d))).toEqual([]);
    }
  });

  it('migration 0016 adds the covering index to a database made by the 0015 schema, and recall there answers as before', async () => {
    const opened = await openWasmDatabase({ persistent: false, log: memoryLogger() });
    const d = opened.driver;
    const at15 = migrations.filter((m) => m.version <= 15);
    expect(at15.at(-1)?.name).toBe('0015-episode-counts');
    migrate(d, at15, () => T0);
    d.run('INSERT INTO projects (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)', ['p1', 'p', T0, T0]);
    const texts = ['the lighthouse keeper climbs', 'a lighthouse in the storm', 'tea by the harbour', 'lighthouse lighthouse lamp'];
    texts.forEach((text, i) => {
      d.run(
        `INSERT INTO episodes (rid, id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, created_at, updated_at)
         VALUES (?, ?, 'skill-run', 'continue', ?, 'narration', ?, ?, 0, 'accepted', 1, ?, ?)`,
        [i + 1, `e${i}`, i === 1 ? null : 'p1', text, JSON.stringify([text]), T0 + i, T0 + i],
      );
      d.run(EPISODE_FTS_INSERT, [i + 1, ...episodeFtsColumns({ inputSummary: text, keptText: text })]);
    });
    d.run('UPDATE episodes SET compressed = 1 WHERE id = ?', ['e3']);
    const indexed = () => d.get<{ sql: string }>("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [RECALL_INDEX]);
    expect(indexed()).toBeUndefined();
    expect(migrate(d, migrations, () => T0).applied).toContain('0016-episode-recall-index');
    expect(indexed()?.sql).toMatch(/ON episodes\(rid, project_id, compressed,/);
    expect(d.get<{ integrity_check: string }>('PRAGMA integrity_check')?.integrity_check).toBe('ok');
    const recall = createEpisodeRecallQuery(d);
    expect(recall.ranked('lighthouse', 'p1', 60).map((h) => h.row.id)).toEqual(['e0']);
    expect(recall.ranked('lighthouse', null, 60).map((h) => h.row.id)).toEqual(['e1']);
    const every = recall.ranked('lighthouse', undefined, 60);
    expect(every.map((h) => h.row.id).sort()).toEqual(['e0', 'e1']);
    // The rows carry the same columns as the table holds.
    expect(every.find((h) => h.row.id === 'e0')?.row).toEqual({ rid: 1, id: 'e0', runId: null, sceneType: 'narration', importance: 0.5, recallCount: 0, lastRecalledAt: null, pinned: false, createdAt: T0 });
    d.close();
  });
});
