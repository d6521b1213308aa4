import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../tests/fixtures/fake-openai-server';
import { createCaller } from '../client/caller';
import { createTestEngine, expectOk } from '../testing';
import { afterReply } from './after-reply';

/** Issue 3 item 6: with a model, the extractive rolling summaries are rewritten by it (summary.replace). */
describe('after a reply, the model improves extractive summaries', () => {
  let server: FakeOpenAi;
  let summaryPrompts: string[];
  beforeAll(async () => {
    summaryPrompts = [];
    server = await startFakeOpenAi({
      replies: (req) => {
        const body = JSON.stringify(req.body);
        if (body.includes('Summarise these conversation turns')) {
          summaryPrompts.push(body);
          return { json: { summary: '模型的摘要：讨论了 OrderService 的重构。', key_symbols: ['OrderService', 'processOrder'], key_decisions: ['改用互斥锁'] } };
        }
        if (body.includes('memory_updates')) return { json: { memory_updates: [] } };
        return { json: { current_topic: null, context_variables: {}, last_emotion: null } };
      },
    });
  });
  afterAll(async () => server.close());

  it('replaces an extractive summary with the model\'s, links kept, and reports it', async () => {
    const t = await createTestEngine();
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await engine.call('session.create', {}));
    let last = 0;
    for (let i = 1; i <= 14; i++) {
      last = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: `第${i}轮：重构 OrderService 的 processOrder` })).message.id;
      expectOk(await engine.call('message.append', { sessionId: s.id, role: 'assistant', content: `回答 ${i}` }));
    }
    expectOk(await engine.call('summary.roll', {}));
    const pending = expectOk(await engine.call('summary.pending', { limit: 5 }));
    expect(pending.length).toBeGreaterThan(0);
    const target = pending[0] as (typeof pending)[number];
    const turnsBefore = expectOk(await engine.call('summary.turns', { id: target.id }));

    const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
    const result = await afterReply({ engine, provider, input: { sessionId: s.id, userMessageId: last } });

    expect(result.summariesImproved).toBeGreaterThan(0);
    expect(summaryPrompts[0]).toContain('第1轮');
    const after = expectOk(await engine.call('summary.list', { sessionId: s.id })).find((x) => x.id === target.id);
    expect(after).toMatchObject({ method: 'model', summary: '模型的摘要：讨论了 OrderService 的重构。', keySymbols: ['OrderService', 'processOrder'], keyDecisions: ['改用互斥锁'] });
    expect(after).toMatchObject({ startTurn: target.startTurn, endTurn: target.endTurn });
    expect(expectOk(await engine.call('summary.turns', { id: target.id }))).toEqual(turnsBefore);
    expect(expectOk(await engine.call('summary.pending', { limit: 5 })).map((x) => x.id)).not.toContain(target.id);
  });

  it('an unusable model answer leaves the extractive summary as it was', async () => {
    server.setReplies(() => ({ json: { nothing: 'useful' } }));
    const t = await createTestEngine();
    const engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await engine.call('session.create', {}));
    let last = 0;
    for (let i = 1; i <= 14; i++) {
      last = expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: `turn ${i} about the cache` })).message.id;
      expectOk(await engine.call('message.append', { sessionId: s.id, role: 'assistant', content: `reply ${i}` }));
    }
    expectOk(await engine.call('summary.roll', {}));
    const before = expectOk(await engine.call('summary.pending', { limit: 5 }));
    expect(before.length).toBeGreaterThan(0);
    const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
    const result = await afterReply({ engine, provider, input: { sessionId: s.id, userMessageId: last } });
    expect(result.summariesImproved).toBe(0);
    expect(expectOk(await engine.call('summary.pending', { limit: 5 }))).toEqual(before);
  });
});
