import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../domain/clock';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk } from '../testing';
import { runSweepJob } from '../context/run-sweep-job';
import { JOB_RUNS_KEPT } from '../handlers/maintenance';
import { maintenanceJob } from './maintenance-job';
import { workingMemoryJob } from './working-memory-job';
import { createScheduler } from './scheduler';
import type { JobDefinition, JobProgress } from './types';

async function setup(jobs: JobDefinition[], opts: { idleAfterMs?: number } = {}) {
  const t = await createTestEngine();
  const clock = fixedClock(t.clock.now());
  const progress: JobProgress[] = [];
  const scheduler = createScheduler({ jobs, engine: createCaller({ call: (req) => t.engine.handle(req) }), clock, onProgress: (p) => progress.push(p), idleAfterMs: opts.idleAfterMs ?? 60_000 });
  return { t, clock, progress, scheduler };
}

describe('jobs scheduler', () => {
  it('runs maintenance on demand, reports progress and records the result for settings', async () => {
    const { t, progress, scheduler } = await setup([maintenanceJob]);
    const outcome = await scheduler.run('maintenance');
    expect(outcome.state).toBe('done');
    expect(outcome.result).toMatchObject({ integrity: 'ok' });
    expect(progress.map((p) => p.step)).toEqual(expect.arrayContaining(['jobs.step.optimize', 'jobs.step.fts-merge', 'jobs.step.integrity', 'jobs.step.done']));
    const [last] = expectOk(await t.engine.call('jobs.history', { job: 'maintenance' }));
    expect(last).toMatchObject({ status: 'ok', trigger: 'demand' });
  });

  it('runs an idle job only once the user has been idle, and periodic ones when due', async () => {
    let idleRuns = 0;
    let periodicRuns = 0;
    const idleJob: JobDefinition = { name: 'idle-job', periodMs: 10_000, onIdle: true, run: async () => ({ n: ++idleRuns }) };
    const periodic: JobDefinition = { name: 'tick-job', periodMs: 5_000, run: async () => ({ n: ++periodicRuns }) };
    const { clock, scheduler } = await setup([idleJob, periodic], { idleAfterMs: 60_000 });
    await scheduler.tick();
    expect(idleRuns).toBe(0); // the user was active just now
    expect(periodicRuns).toBe(1); // never ran before: due
    clock.advance(61_000);
    await scheduler.tick();
    expect(idleRuns).toBe(1);
    expect(periodicRuns).toBe(2);
    scheduler.activity();
    clock.advance(11_000);
    await scheduler.tick();
    expect(idleRuns).toBe(1); // due, but the user is active again
  });

  it('restart: a run in flight is asked to stop and a new run follows it at once; restarts meanwhile share that run', async () => {
    const runs: { aborted: () => boolean }[] = [];
    let release = () => {};
    const job: JobDefinition = {
      name: 'reads-at-start',
      periodMs: 60_000,
      run: async ({ signal }) => {
        runs.push({ aborted: () => signal.aborted });
        if (runs.length === 1) await new Promise<void>((r) => (release = r));
        return { run: runs.length };
      },
    };
    const { scheduler } = await setup([job]);
    const first = scheduler.run('reads-at-start');
    expect(scheduler.run('reads-at-start')).toBe(first); // run: one at a time, the one in flight
    const again = scheduler.restart('reads-at-start');
    expect(scheduler.restart('reads-at-start')).toBe(again);
    expect(runs[0]?.aborted()).toBe(true);
    release();
    expect((await first).result).toEqual({ run: 1 });
    expect((await again).result).toEqual({ run: 2 });
    expect(runs).toHaveLength(2);
    expect(runs[1]?.aborted()).toBe(false);
    // Nothing in flight: a restart is a run.
    expect((await scheduler.restart('reads-at-start')).result).toEqual({ run: 3 });
    expect(() => scheduler.restart('no-such-job')).toThrow('unknown job no-such-job');
  });

  it('records a failing job as failed and keeps going', async () => {
    const broken: JobDefinition = { name: 'broken-job', run: async () => Promise.reject(new Error('boom')) };
    const { t, scheduler } = await setup([broken]);
    const outcome = await scheduler.run('broken-job');
    expect(outcome).toMatchObject({ state: 'failed', error: 'boom' });
    const [last] = expectOk(await t.engine.call('jobs.history', { job: 'broken-job' }));
    expect(last?.status).toBe('failed');
  });

  it('a run that found nothing to do is not recorded; one that did something is', async () => {
    const { t, progress, scheduler } = await setup([workingMemoryJob, runSweepJob]);
    expect((await scheduler.run('working-memory-sweep')).state).toBe('done');
    expect((await scheduler.run('context-run-sweep')).state).toBe('done');
    expect(expectOk(await t.engine.call('jobs.history', {}))).toEqual([]);
    expect(progress.filter((p) => p.state === 'done')).toHaveLength(2);
    // A working memory that has been idle for 30 minutes is swept: that run is recorded.
    const s = expectOk(await t.engine.call('session.create', {}));
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'I prefer tabs over spaces' }));
    t.clock.advance(31 * 60_000);
    const swept = await scheduler.run('working-memory-sweep');
    expect(swept.result).toMatchObject({ removed: 1 });
    expect(expectOk(await t.engine.call('jobs.history', {})).map((r) => r.job)).toEqual(['working-memory-sweep']);
  });

  it('job_runs keeps each job\'s newest runs only', async () => {
    const { t } = await setup([]);
    for (let i = 0; i < JOB_RUNS_KEPT + 5; i++)
      expectOk(await t.engine.call('jobs.record', { job: 'maintenance', trigger: 'idle', status: 'ok', startedAt: i, finishedAt: i + 1, result: { i } }));
    expectOk(await t.engine.call('jobs.record', { job: 'other-job', trigger: 'idle', status: 'ok', startedAt: 0, finishedAt: 1, result: {} }));
    const count = (job: string) => t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM job_runs WHERE job = ?', [job])?.n;
    expect(count('maintenance')).toBe(JOB_RUNS_KEPT);
    expect(count('other-job')).toBe(1);
    const [newest] = expectOk(await t.engine.call('jobs.history', { job: 'maintenance', limit: 1 }));
    expect(newest?.result).toEqual({ i: JOB_RUNS_KEPT + 4 });
  });

  it('one run per job at a time', async () => {
    let runs = 0;
    const slow: JobDefinition = { name: 'slow-job', run: () => new Promise((r) => setTimeout(() => r({ n: ++runs }), 20)) };
    const { scheduler } = await setup([slow]);
    await Promise.all([scheduler.run('slow-job'), scheduler.run('slow-job')]);
    expect(runs).toBe(1);
  });
});
