/**
 * The jobs worker's own writes are bookkeeping, never "a person's save": the page asks the browser for persistent
 * storage after the first real save only (connection.svelte.ts, isUserWrite), and every page load runs the start-up
 * jobs — so a start-up job whose write counted as a person's would ask at every load, before anyone saved anything.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../domain/clock';
import { createCaller } from '../client/caller';
import { isUserWrite, type Method } from '../protocol/contract';
import { createTestEngine, expectOk } from '../testing';
import { createScheduler } from './scheduler';
import { JOBS } from './worker-api';

describe('the start-up jobs write only as bookkeeping (never a person\'s save)', () => {
  it('no write of a start-up pass over a store with conversations due a summary counts as a person\'s', async () => {
    const t = await createTestEngine();
    const person = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await person.call('session.create', {}));
    for (let i = 1; i <= 14; i++) {
      expectOk(await person.call('message.append', { sessionId: s.id, role: 'user', content: `turn ${i}: the cache keeps stale orders` }));
      expectOk(await person.call('message.append', { sessionId: s.id, role: 'assistant', content: `answer ${i}` }));
    }
    const sent: Method[] = [];
    const jobs = createCaller({
      call: (req) => {
        sent.push(req.method as Method);
        return t.engine.handle(req);
      },
    });
    const scheduler = createScheduler({ jobs: JOBS, engine: jobs, clock: fixedClock(t.clock.now()), onProgress: () => {}, mayRunScheduled: () => true });
    await scheduler.tick();
    // The pass did write: the rolling summaries, the clean-up and the jobs' own records.
    expect(sent).toEqual(expect.arrayContaining(['summary.roll', 'lifecycle.run', 'jobs.record']));
    expect([...new Set(sent.filter((m) => isUserWrite(m)))]).toEqual([]);
  });
});
