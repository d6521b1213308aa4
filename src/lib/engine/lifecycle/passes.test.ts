import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../domain/clock';
import { ACTIVE_EPISODES_PER_PROJECT } from '../../domain/lifecycle/budgets';
import type { SqlDriver } from '../store/driver';
import { runInSlices } from '../store/slices';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createLedger } from './ledger';
import { compressPass, decayPass, purgePass, type Pass, type PassDeps } from './passes';

/** `n` episodes of a project, created `ageMs` ago (one ms apart), compressed or not. */
function insertEpisodes(t: TestEngine, projectId: string, n: number, ageMs: number, opts: { prefix: string; compressed?: boolean }) {
  t.driver.run(
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, importance, compressed, created_at, updated_at)
     SELECT ? || i, 'skill-run', 'continue', ?, 'action', 'x', json_array('a'), 0, 'weak-positive', 0.4, 0.5, ?, ? + i, ? + i FROM seq`,
    [n, opts.prefix, projectId, opts.compressed ? 1 : 0, t.clock.now() - ageMs, t.clock.now() - ageMs],
  );
}

/**
 * The driver with every statement counted against the slice it ran in, and a clock that a statement moves on by
 * 1 ms: runInSlices's 20 ms budget is then 20 statements, whatever the machine's speed.
 */
function countingDriver(driver: SqlDriver) {
  let t = 0;
  const perSlice: number[] = [0];
  const sqls = new Map<string, number>();
  const count = <T>(sql: string, f: () => T): T => {
    t += 1;
    perSlice[perSlice.length - 1]!++;
    sqls.set(sql, (sqls.get(sql) ?? 0) + 1);
    return f();
  };
  const counted: SqlDriver = {
    kind: driver.kind,
    exec: (sql) => count(sql, () => driver.exec(sql)),
    run: (sql, p) => count(sql, () => driver.run(sql, p)),
    all: (sql, p) => count(sql, () => driver.all(sql, p)),
    get: (sql, p) => count(sql, () => driver.get(sql, p)),
    transaction: (fn) => driver.transaction(fn),
    close: () => driver.close(),
  };
  return { driver: counted, now: () => t, perSlice, sqls, nextSlice: () => perSlice.push(0) };
}

async function runCounted(t: TestEngine, make: (d: PassDeps) => Pass) {
  const c = countingDriver(t.driver);
  const pass = make({ driver: c.driver, clock: t.clock, ledger: createLedger(c.driver, t.clock) });
  let stepMax = 0;
  const slices = await runInSlices({
    driver: c.driver,
    now: c.now,
    budgetMs: 20,
    step: () => {
      const before = c.now();
      const more = pass.step();
      stepMax = Math.max(stepMax, c.now() - before);
      return more;
    },
    onSlice: () => c.nextSlice(),
  });
  c.perSlice.pop();
  return { slices, perSlice: c.perSlice, stepMax, sqls: c.sqls, report: pass.report };
}

/** The statements run on every step (not the once-a-pass choices) read only the rows they handle. */
function plansOfRepeated(t: TestEngine, sqls: Map<string, number>): string[] {
  return [...sqls]
    .filter(([sql, n]) => n > 3 && /^\s*SELECT/i.test(sql) && /FROM episodes/.test(sql))
    .map(([sql]) => {
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 0);
      return t.driver.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params).map((r) => r.detail).join(' | ');
    });
}

describe('lifecycle passes work in slices of their budget', () => {
  it('never puts more than a budget and one small step of statements in a slice, and no step sorts or re-scans the table', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    insertEpisodes(t, project.id, ACTIVE_EPISODES_PER_PROJECT + 30, 10_000, { prefix: 'fresh-' });
    insertEpisodes(t, project.id, 40, 200 * DAY_MS, { prefix: 'old-' });
    insertEpisodes(t, project.id, 30, 400 * DAY_MS, { prefix: 'gone-', compressed: true });
    const runs = { decay: await runCounted(t, decayPass), compress: await runCounted(t, compressPass), purge: await runCounted(t, purgePass) };
    // What the passes did: the 40 past the TTL and the 30 beyond the newest 1,000 compressed; the 30 past 365 days
    // deleted, and the 40 of 200 days too (decayed below 0.1: 003 待淘汰).
    expect(runs.compress.report.compressed).toBe(70);
    expect(runs.purge.report.deleted).toBe(70);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 0')?.n).toBe(ACTIVE_EPISODES_PER_PROJECT);
    for (const [phase, r] of Object.entries(runs)) {
      // One step is a handful of statements (one episode compressed — with a bounded index merge now and then —, a few deleted, ten decayed) …
      expect(r.stepMax, phase).toBeLessThanOrEqual(phase === 'compress' ? 8 : 21);
      // … so a slice stops within one step of its 20-statement budget.
      expect(Math.max(...r.perSlice), phase).toBeLessThanOrEqual(20 + r.stepMax);
      expect(r.slices, phase).toBeGreaterThan(3);
      for (const plan of plansOfRepeated(t, r.sqls)) {
        expect(plan, phase).not.toMatch(/TEMP B-TREE/);
        expect(plan, phase).not.toMatch(/^SCAN episodes|\| SCAN episodes/);
      }
    }
  });

  it('compresses a project beyond its newest 1,000 episodes one episode per step, the least recently used first', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    const extra = 23;
    // Fresh episodes (neither decayed nor past the TTL): only the budget makes them due.
    insertEpisodes(t, project.id, ACTIVE_EPISODES_PER_PROJECT + extra, 10_000, { prefix: 'e-' });
    const compressed = () => t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1')?.n ?? 0;
    const pass = compressPass({ driver: t.driver, clock: t.clock, ledger: createLedger(t.driver, t.clock) });
    const perStep: number[] = [];
    for (let more = true, before = 0; more; before = compressed()) {
      more = t.driver.transaction(() => pass.step());
      perStep.push(compressed() - before);
    }
    expect(compressed()).toBe(extra);
    expect(Math.max(...perStep)).toBe(1);
    // The oldest went; the newest 1,000 stay whole.
    expect(t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1 AND CAST(substr(id, 3) AS INTEGER) > ?", [extra])?.n).toBe(0);
  });

  it('skips an episode chosen for the budget that was recalled before its step came', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    insertEpisodes(t, project.id, ACTIVE_EPISODES_PER_PROJECT + 2, 10_000, { prefix: 'e-' });
    const pass = compressPass({ driver: t.driver, clock: t.clock, ledger: createLedger(t.driver, t.clock) });
    // Until the victims are chosen (the due scan, then the choice), nothing is compressed.
    while (t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE compressed = 1')?.n === 0) {
      const chosen = t.driver.transaction(() => pass.step());
      expect(chosen).toBe(true);
      // The oldest one is recalled now (between two slices): it is no longer the least recently used.
      t.driver.run("UPDATE episodes SET last_recalled_at = ?, recall_count = 1 WHERE id = 'e-1'", [t.clock.now()]);
    }
    while (t.driver.transaction(() => pass.step()));
    expect(t.driver.get<{ c: number }>("SELECT compressed AS c FROM episodes WHERE id = 'e-1'")?.c).toBe(0);
  });
});
