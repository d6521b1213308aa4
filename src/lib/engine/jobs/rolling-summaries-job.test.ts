import { describe, expect, it } from 'vitest';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk } from '../testing';
import { rollingSummariesJob } from './rolling-summaries-job';

describe('rolling-summaries job (jobs worker, 002 SC-LTM-003 定期摘要)', () => {
  it('makes the due summaries of every conversation through the engine and reports how many', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', {}));
    for (let i = 1; i <= 15; i++) {
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: `第${i}轮` }));
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: `回答${i}` }));
    }
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const ctx = { engine, trigger: 'periodic' as const, progress: () => undefined, signal: new AbortController().signal };
    expect(await rollingSummariesJob.run(ctx)).toEqual({ created: 2, sessions: 1 });
    expect(await rollingSummariesJob.run(ctx)).toEqual({ created: 0, sessions: 0 });
    expect(expectOk(await t.engine.call('summary.list', { sessionId: s.id })).map((x) => [x.startTurn, x.endTurn])).toEqual([
      [1, 5],
      [6, 10],
    ]);
  });
});
