/**
 * The lifecycle's housekeeping (issue 19): FTS5's automerge stays off (the engine's setting) through compress passes, and
 * the pages compression and purging free go back to the file system in bounded steps (incremental vacuum).
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createLedger } from './ledger';
import { ACTIVE_EPISODES_PER_PROJECT } from '../../domain/lifecycle/budgets';
import { compressPass, FTS_AUTOMERGE_ENGINE, FULL, templateSummary, type FullRow } from './passes';
import { createLifecycleService } from './service';
import { freePages, isIncremental, VACUUM_PAGES, vacuumStep } from './vacuum';

const automerge = (t: TestEngine) => t.driver.get<{ v: number }>("SELECT v FROM episodes_fts_config WHERE k = 'automerge'")?.v;
const pages = (t: TestEngine) => t.driver.get<{ n: number }>('SELECT page_count AS n FROM pragma_page_count()')?.n ?? 0;

/** `n` episodes of a project, `ageDays` old, each with ~1.2 KB of candidates (what compression drops). */
function insertBulky(t: TestEngine, projectId: string, n: number, ageDays: number) {
  t.driver.run(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, importance, compressed, created_at, updated_at)
     SELECT 'b-' || i, 'skill-run', 'continue', ?, 'action', 'x', json_array(printf('%.600c', 'a'), printf('%.600c', 'b')), 0, 'weak-positive', 0.4, 0.5, 0, ? + i, ? + i FROM seq`,
    [n, projectId, t.clock.now() - ageDays * DAY_MS, t.clock.now() - ageDays * DAY_MS],
  );
}

describe('FTS5 automerge stays off through the compress pass (issue 19: merging is never in a COMMIT of its own accord)', () => {
  it('is off from the engine’s open, while a pass runs, after one cut short and after the next pass', async () => {
    const t = await createTestEngine();
    expect(automerge(t)).toBe(FTS_AUTOMERGE_ENGINE);
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    insertBulky(t, project.id, 40, 200);
    // A compress pass that stops after a few steps (the tab closed mid-pass).
    const pass = compressPass({ driver: t.driver, clock: t.clock, ledger: createLedger(t.driver, t.clock) });
    for (let i = 0; i < 3; i++) t.driver.transaction(() => pass.step());
    expect(automerge(t)).toBe(FTS_AUTOMERGE_ENGINE);
    // Another service on the same database (an open) and a whole pass leave it off.
    createLifecycleService({ driver: t.driver, clock: t.clock, log: t.log });
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay', 'compress'], vacuum: false }));
    expect(automerge(t)).toBe(FTS_AUTOMERGE_ENGINE);
  });
});

describe('the compress pass paces its FTS merges as import apply and the reindex do (store/fts-merge.ts)', () => {
  it('one step in 32 is a bounded merge and compresses nothing; at the end it merges to the end, automerge off throughout', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    // 200 days old: past the 180-day TTL, all 100 due for compression.
    insertBulky(t, project.id, 100, 200);
    let merges = 0;
    const driver = Object.create(t.driver) as typeof t.driver;
    driver.run = (sql, params) => {
      if (/VALUES \('merge'/.test(sql)) merges++;
      return t.driver.run(sql, params);
    };
    const pass = compressPass({ driver, clock: t.clock, ledger: createLedger(t.driver, t.clock) });
    const log: { merged: boolean; compressed: number }[] = [];
    for (let more = true; more; ) {
      const m0 = merges;
      const c0 = pass.report.compressed;
      more = t.driver.transaction(() => pass.step());
      log.push({ merged: merges > m0, compressed: pass.report.compressed - c0 });
      if (log.length === 2) expect(automerge(t)).toBe(0);
    }
    expect(pass.report.compressed).toBe(100);
    // No step both merges and compresses.
    expect(log.some((l) => l.merged && l.compressed > 0)).toBe(false);
    const lastCompress = log.findLastIndex((l) => l.compressed > 0);
    // While episodes are compressed: the 32nd, 64th, 96th … steps are the merges, and only those.
    const during = log.slice(0, lastCompress + 1).flatMap((l, i) => (l.merged ? [i + 1] : []));
    expect(during).toEqual(Array.from({ length: Math.floor((lastCompress + 1) / 32) }, (_, i) => (i + 1) * 32));
    // After the last episode: merges until FTS5 has nothing left to merge; automerge stays off.
    expect(log.slice(lastCompress + 1).some((l) => l.merged)).toBe(true);
    expect(automerge(t)).toBe(FTS_AUTOMERGE_ENGINE);
  });
});

describe('the database shrinks after compression and purge, in bounded steps', () => {
  it('gives the freed pages back at the end of the compress and purge passes: the file shrinks after purging', async () => {
    const t = await createTestEngine();
    // A new database is made in incremental auto-vacuum (store/migrate.ts).
    expect(isIncremental(t.driver)).toBe(true);
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    // 400 days old: past both TTLs — compressed (candidates dropped), then deleted.
    insertBulky(t, project.id, 1200, 400);
    const before = pages(t);
    const compress = expectOk(await t.engine.call('lifecycle.run', { phases: ['decay', 'compress'], vacuum: false }));
    if (compress.state !== 'done') throw new Error('not done');
    expect(compress.phases.find((p) => p.phase === 'compress')?.compressed).toBe(1200);
    expect(freePages(t.driver)).toBe(0);
    // Compression shrinks rows in place: the bytes it frees stay inside their pages (SQLite merges pages on
    // delete, not on update) and the ledger grows, so the file does not shrink here — whatever whole pages did
    // come free went back (no free page is left).
    const afterCompress = pages(t);
    expect(afterCompress).toBeLessThan(before * 1.3);
    const purge = expectOk(await t.engine.call('lifecycle.run', { phases: ['purge'], vacuum: false }));
    if (purge.state !== 'done') throw new Error('not done');
    expect(purge.phases[0]?.deleted).toBe(1200);
    expect(freePages(t.driver)).toBe(0);
    // Purging deletes the rows: their pages come free and go back, VACUUM_PAGES a step.
    expect(pages(t)).toBeLessThan(afterCompress * 0.6);
    expect(purge.bytesAfter).toBeLessThan(purge.bytesBefore * 0.6);
  });

  it('one step frees at most VACUUM_PAGES pages', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    insertBulky(t, project.id, 800, 1);
    t.driver.run('DELETE FROM episodes');
    const free = freePages(t.driver);
    expect(free).toBeGreaterThan(VACUUM_PAGES * 3);
    let steps = 0;
    for (let more = true; more; steps++) {
      const was = freePages(t.driver);
      more = t.driver.transaction(() => vacuumStep(t.driver));
      expect(was - freePages(t.driver)).toBeLessThanOrEqual(VACUUM_PAGES);
    }
    expect(freePages(t.driver)).toBe(0);
    expect(steps).toBeGreaterThanOrEqual(Math.ceil(free / VACUUM_PAGES));
  });

  it('a database made before incremental vacuum switches at the manual clean-up (VACUUM), and a step does nothing before', async () => {
    const t = await createTestEngine();
    // As an older database: auto-vacuum off (a full VACUUM applies the setting).
    t.driver.exec('PRAGMA auto_vacuum = NONE');
    t.driver.exec('VACUUM');
    expect(isIncremental(t.driver)).toBe(false);
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    insertBulky(t, project.id, 50, 1);
    t.driver.run('DELETE FROM episodes');
    const free = freePages(t.driver);
    expect(free).toBeGreaterThan(0);
    expect(t.driver.transaction(() => vacuumStep(t.driver))).toBe(false);
    expect(freePages(t.driver)).toBe(free);
    const res = expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'], vacuum: true }));
    expect(res.state === 'done' && res.vacuumed).toBe(true);
    expect(isIncremental(t.driver)).toBe(true);
    expect(freePages(t.driver)).toBe(0);
  });
});

describe('budget-evicted episodes get the template (docs/decisions.md "compression\'s summary")', () => {
  it('a project over its 1,000 active episodes: none of the extra is offered to the model, and each is compressed with the template', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    // Fresh episodes: only the budget makes the oldest 5 due.
    insertBulky(t, project.id, ACTIVE_EPISODES_PER_PROJECT + 5, 1);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'], vacuum: false }));
    const offered: string[] = [];
    for (let after = 0; ; ) {
      const page = expectOk(await t.engine.call('lifecycle.summaryCandidates', { limit: 50, after }));
      offered.push(...page.items.map((i) => i.id));
      if (page.next === null) break;
      after = page.next;
    }
    expect(offered).toEqual([]);
    expectOk(await t.engine.call('lifecycle.run', { phases: ['compress'], vacuum: false }));
    const rows = t.driver.all<FullRow & { summary: string }>(`SELECT ${FULL}, summary FROM episodes WHERE compressed = 1 ORDER BY rid`);
    expect(rows.map((r) => r.id)).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'b-5']);
    for (const r of rows) expect(r.summary).toBe(templateSummary({ ...r, candidates: JSON.stringify(['a', 'b']) }));
  });
});
