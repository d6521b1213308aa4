/**
 * Seed 003, the clean-up's failure and concurrency (issue 19): 清理任务失败触发告警, 并发清理冲突 and
 * 压缩队列堆积 (异常与边界覆盖矩阵), against the real engine and the jobs worker's scheduler, fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_WINDOW_MS } from '../../src/lib/engine/jobs/lifecycle-job';
import { testJobs } from '../../src/lib/engine/jobs/testing';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { chapter, FIGHTS } from './learning-helpers';
import { bulkEpisodes, count, DAY } from './lifecycle-helpers';

/** The database refuses the decay pass's writes as a locked database does, until `heal()`. */
function lockDecayWrites(t: TestEngine) {
  const run = t.driver.run.bind(t.driver);
  t.driver.run = (sql, params) => {
    if (sql.startsWith('UPDATE episodes SET decay')) throw new Error('SQLITE_BUSY: database is locked');
    return run(sql, params);
  };
  return { heal: () => (t.driver.run = run) };
}

describe('seed 003 clean-up failures and concurrency', () => {
  it('003 清理任务失败触发告警: the daily clean-up meets a locked database → MEMORY_CLEANUP_FAILED recorded and shown, and the next window retries it', async () => {
    const t = await createTestEngine();
    const { project } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: 50, prefix: 'e-' });
    t.clock.advance(2 * DAY);
    const lock = lockDecayWrites(t);
    // The call itself answers the code…
    expect(await t.engine.call('lifecycle.run', { phases: ['decay'] })).toMatchObject({ ok: false, error: { code: 'MEMORY_CLEANUP_FAILED', details: { phase: 'decay' } } });
    // …the job run is recorded as failed with it (Settings shows it; the page raises a notice)…
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    const outcome = await jobs.run('lifecycle');
    expect(outcome).toMatchObject({ state: 'failed' });
    expect(outcome.error).toContain('MEMORY_CLEANUP_FAILED');
    const history = expectOk(await t.engine.call('jobs.history', { job: 'lifecycle' }));
    expect(history[0]).toMatchObject({ status: 'failed', result: { error: expect.stringContaining('MEMORY_CLEANUP_FAILED') } });
    // …and the status names the failing phase, which is due again.
    const failed = expectOk(await t.engine.call('lifecycle.status', {}));
    expect(failed.phases.decay.error).toContain('database is locked');
    expect(failed.due).toContain('decay');
    // Nothing half-done: the slice that failed rolled back.
    expect(count(t, 'decay < 1')).toBe(0);
    // The next window: the lock is gone, the scheduler's next look retries and succeeds.
    lock.heal();
    t.clock.advance(LIFECYCLE_WINDOW_MS);
    await jobs.scheduler.tick();
    const healed = expectOk(await t.engine.call('lifecycle.status', {}));
    expect(healed.phases.decay).toMatchObject({ error: null, lastOkAt: t.clock.now() });
    expect(count(t, 'decay < 1')).toBe(50);
    // The history says what the run did, its WAL checkpoints between slices too (none here: Node counts no pages).
    expect(expectOk(await t.engine.call('jobs.history', { job: 'lifecycle' }))[0]).toMatchObject({ status: 'ok', trigger: 'startup', result: { phases: 'decay,compress,purge', checkpoints: 0 } });
  });

  it('concurrent clean-up (003 并发清理冲突): two passes asked at once → one runs, the other is told it is running; the job never runs twice', async () => {
    const t = await createTestEngine();
    const { project } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: 3000, prefix: 'e-' });
    t.clock.advance(40 * DAY);
    const [a, b] = await Promise.all([t.engine.call('lifecycle.run', { phases: ['decay', 'compress'] }), t.engine.call('lifecycle.run', { phases: ['decay', 'compress'] })]);
    const states = [expectOk(a), expectOk(b)].map((r) => r.state).sort();
    expect(states).toEqual(['done', 'skipped']);
    expect(count(t, 'compressed = 1')).toBe(3000);
    // Each episode compressed once: one ledger row each.
    expect(t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM forgetting_ledger WHERE action = 'compressed'")?.n).toBe(3000);
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    const [j1, j2] = await Promise.all([jobs.run('lifecycle'), jobs.run('lifecycle')]);
    expect(j1).toBe(j2);
    expect(expectOk(await t.engine.call('jobs.history', { job: 'lifecycle' }))).toHaveLength(1);
  });

  it('compression queue pile-up (003 压缩队列堆积): 3,000 episodes due at once are worked off in short slices, and a query asked meanwhile answers before the pass ends', async () => {
    const t = await createTestEngine();
    const { project } = await chapter(t);
    bulkEpisodes(t, { projectId: project.id, n: 3000, prefix: 'e-', big: true });
    t.clock.advance(200 * DAY); // past the 180-day TTL: the whole backlog is due
    const order: string[] = [];
    const pass = t.engine.call('lifecycle.run', { phases: ['compress'] }).then((r) => (order.push('pass'), r));
    await new Promise((r) => setTimeout(r, 0));
    const query = t.engine.call('episode.query', { projectId: project.id, sceneType: 'action', text: FIGHTS[0] as string }).then((r) => (order.push('query'), r));
    const [res] = await Promise.all([pass, query]);
    expect(order).toEqual(['query', 'pass']);
    const done = expectOk(res);
    if (done.state !== 'done') throw new Error('skipped');
    expect(done.phases[0]).toMatchObject({ phase: 'compress', compressed: 3000 });
    expect(done.phases[0]!.slices).toBeGreaterThan(1);
    expect(count(t, 'compressed = 0')).toBe(0);
    expect(t.driver.get<{ n: number }>("SELECT COUNT(*) AS n FROM forgetting_ledger WHERE reason = 'ttl'")?.n).toBe(3000);
  });
});
