/**
 * Issue 16: scheduled jobs run in the one tab holding the jobs lock, and the tab that gets it late (a reload while
 * the old page still held it, or a second tab whose first one closes) runs its start-up jobs at the grant — not at
 * its next 15 s tick — and exactly once.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../domain/clock';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createScheduler } from './scheduler';
import { createLockedScheduler, JOBS_LOCK, type LockRequester } from './scheduling-lock';
import type { JobDefinition } from './types';

/** navigator.locks for one exclusive lock shared by tabs: granted in request order, asynchronously, as a browser does. */
function fakeLockManager() {
  const waiting: { tab: string; grant: () => void }[] = [];
  let holder: string | null = null;
  const grantNext = () => {
    if (holder !== null) return;
    const next = waiting.shift();
    if (!next) return;
    holder = next.tab;
    next.grant();
  };
  return {
    holder: () => holder,
    tab(tab: string): LockRequester & { close(): void } {
      return {
        request(name, callback) {
          expect(name).toBe(JOBS_LOCK);
          return new Promise((resolve) => {
            waiting.push({ tab, grant: () => void callback().then(resolve) });
            setTimeout(grantNext, 0);
          });
        },
        /** The tab closes (or reloads): its held lock and its waiting request go at once. */
        close() {
          for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]?.tab === tab) waiting.splice(i, 1);
          if (holder === tab) {
            holder = null;
            setTimeout(grantNext, 0);
          }
        },
      };
    },
  };
}

const settle = () => new Promise<void>((r) => setTimeout(r, 20));

function counting(t: TestEngine) {
  const runs: Record<string, string[]> = {};
  const job = (name: string, extra: Partial<JobDefinition>): JobDefinition => ({
    name,
    ...extra,
    run: async ({ trigger }) => {
      (runs[name] ??= []).push(trigger);
      return { ran: runs[name].length };
    },
  });
  const jobs = [job('at-startup', { onStartup: true }), job('every-minute', { periodMs: 60_000 })];
  const engine = createCaller({ call: (req) => t.engine.handle(req) });
  return { runs, jobs, engine };
}

describe('the jobs lock (issue 16)', () => {
  it('a tab granted the lock late runs its start-up jobs at the grant, once — its ticks before ran nothing', async () => {
    const t = await createTestEngine();
    const clock = fixedClock(t.clock.now());
    const locks = fakeLockManager();
    const { runs, jobs, engine } = counting(t);
    const oldPage = locks.tab('old');
    createLockedScheduler(oldPage, { jobs: [], engine, clock, onProgress: () => {} });
    await settle();
    expect(locks.holder()).toBe('old');

    const page = createLockedScheduler(locks.tab('new'), { jobs, engine, clock, onProgress: () => {} });
    await page.tick(); // the new page's first tick: the old page still holds the lock
    await settle();
    expect(runs).toEqual({});

    oldPage.close(); // the old document goes: no tick of the new page follows, no clock moves
    await settle();
    expect(locks.holder()).toBe('new');
    expect(runs['at-startup']).toEqual(['startup']);
    expect(runs['every-minute']).toEqual(['periodic']);
    const history = expectOk(await t.engine.call('jobs.history', { job: 'at-startup' }));
    expect(history.map((h) => h.trigger)).toEqual(['startup']);

    for (let i = 0; i < 3; i++) {
      clock.advance(61_000);
      await page.tick();
    }
    expect(runs['at-startup']).toEqual(['startup']);
    expect(runs['every-minute']).toHaveLength(4);
  });

  it('a tick racing the grant does not start the start-up jobs twice', async () => {
    const t = await createTestEngine();
    const clock = fixedClock(t.clock.now());
    const locks = fakeLockManager();
    const { runs, jobs, engine } = counting(t);
    const page = createLockedScheduler(locks.tab('only'), { jobs, engine, clock, onProgress: () => {} });
    // The timer's tick at every turn around the grant.
    for (let i = 0; i < 6; i++) {
      void page.tick();
      await new Promise<void>((r) => setTimeout(r, 0));
    }
    await settle();
    await page.tick();
    expect(runs['at-startup']).toEqual(['startup']);
    expect(runs['every-minute']).toEqual(['periodic']);
  });

  it('passes never overlap: a pass asked for while the first reads the job history starts nothing twice', async () => {
    const t = await createTestEngine();
    const clock = fixedClock(t.clock.now());
    const { runs, jobs } = counting(t);
    // A busy DB worker: every history read after the first pass's is slow, so a second pass that read it too
    // would come to the start-up jobs after the first pass had run them.
    let historyReads = 0;
    const engine = createCaller({
      call: async (req) => {
        if (req.method === 'jobs.history' && ++historyReads > jobs.length) await new Promise((r) => setTimeout(r, 30));
        return t.engine.handle(req);
      },
    });
    const scheduler = createScheduler({ jobs, engine, clock, onProgress: () => {} });
    const first = scheduler.tick();
    await Promise.resolve();
    const second = scheduler.tick();
    const third = scheduler.tick();
    await Promise.all([first, second, third]);
    expect(runs['at-startup']).toEqual(['startup']);
    expect(runs['every-minute']).toEqual(['periodic']);
  });

  it('two tabs: only the lock holder runs scheduled jobs; when it closes the other takes over at once', async () => {
    const t = await createTestEngine();
    const clock = fixedClock(t.clock.now());
    const locks = fakeLockManager();
    const a = counting(t);
    const b = counting(t);
    const tabA = locks.tab('a');
    const schedA = createLockedScheduler(tabA, { jobs: a.jobs, engine: a.engine, clock, onProgress: () => {} });
    await settle();
    const schedB = createLockedScheduler(locks.tab('b'), { jobs: b.jobs, engine: b.engine, clock, onProgress: () => {} });
    await settle();
    for (let i = 0; i < 3; i++) {
      clock.advance(61_000);
      await Promise.all([schedA.tick(), schedB.tick()]);
    }
    expect(a.runs['at-startup']).toEqual(['startup']);
    expect(a.runs['every-minute']).toHaveLength(4);
    expect(b.runs).toEqual({});
    // A job asked for by name runs in any tab.
    expect((await schedB.run('every-minute')).state).toBe('done');
    expect(b.runs['every-minute']).toEqual(['demand']);

    tabA.close();
    schedA.stop();
    await settle();
    expect(locks.holder()).toBe('b');
    expect(b.runs['at-startup']).toEqual(['startup']);
    // B read the history A (and its own demand run) left: the periodic job ran just now, so it is not due again yet.
    expect(b.runs['every-minute']).toEqual(['demand']);
    clock.advance(61_000);
    await schedB.tick();
    expect(b.runs['every-minute']).toEqual(['demand', 'periodic']);
  });
});
