import { describe, expect, it } from 'vitest';
import { fail } from '../../../domain/errors';
import { createHeuristicProvider } from '../../../domain/llm/heuristic';
import { DEFAULT_MODEL_SETTINGS } from '../../../domain/llm/settings';
import type { ModelProvider } from '../../../domain/llm/types';
import { createCaller } from '../../../engine/client/caller';
import { scriptedProvider } from '../../../engine/client/testing';
import type { EngineRequest } from '../../../engine/engine';
import { createTestEngine, expectOk } from '../../../engine/testing';
import type { AfterReplyJob } from '../../../engine/turn/types';
import type { ChatDeps } from './chat-deps';
import { ChatSession } from './chat-session.svelte';

/** The chat's core flow on a real engine (in-memory SQLite) and a scripted model, no page, no workers. */
async function chat(provider: ModelProvider, opts: { unreachable?: () => boolean } = {}) {
  const t = await createTestEngine();
  const calls: string[] = [];
  const engine = createCaller({
    call: async (req: EngineRequest) => {
      calls.push(req.method);
      if (opts.unreachable?.()) return fail('DB_UNAVAILABLE', 'The database worker is not reachable.');
      return t.engine.handle(req);
    },
  });
  const queued: { method: string; input: unknown }[] = [];
  const jobs: AfterReplyJob[] = [];
  const deps: ChatDeps = {
    engine,
    outbox: {
      write: async (method, input) => {
        const res = await engine.call(method, input);
        if (res.ok || res.error.code !== 'DB_UNAVAILABLE') return res;
        queued.push({ method, input });
        return { ok: false, queued: true, opId: 'op-queued-1', error: { code: 'DB_UNAVAILABLE', message: res.error.message } };
      },
    },
    settings: async () => ({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', model: 'test-model' }),
    provider: () => provider,
    locale: () => 'en',
    clock: t.clock,
    afterReply: (job) => jobs.push(job),
  };
  return { t, calls, queued, jobs, session: new ChatSession(deps) };
}

describe('ChatSession: a chat turn is one call to prepare it and one to finish it', () => {
  it('the first message makes the conversation; message and reply are shown as stored; the after-reply work goes to the jobs worker', async () => {
    const c = await chat(scriptedProvider({ reply: () => 'Use a mutex around processPayment.' }));
    expect(await c.session.send('  processPayment races in src/order.ts  ')).toBe(true);
    expect(c.calls).toEqual(['turn.prepare', 'turn.finish']);
    expect(c.session.phase).toBe('idle');
    expect(c.session.error).toBeNull();
    const sessionId = c.session.sessionId as string;
    const stored = expectOk(await c.t.engine.call('message.list', { sessionId }));
    expect(c.session.messages).toEqual(stored);
    expect(stored.map((m) => m.content)).toEqual(['processPayment races in src/order.ts', 'Use a mutex around processPayment.']);
    expect(c.jobs).toEqual([expect.objectContaining({ sessionId, userMessageId: stored[0]?.id, assistantMessageId: stored[1]?.id })]);

    // The next message continues the same conversation.
    c.calls.length = 0;
    await c.session.send('and in refunds?');
    expect(c.calls).toEqual(['turn.prepare', 'turn.finish']);
    expect(c.session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('retry replaces the last reply in the same two calls', async () => {
    let n = 0;
    const c = await chat(scriptedProvider({ reply: () => `answer ${++n}` }));
    await c.session.send('hello');
    c.calls.length = 0;
    await c.session.retry();
    expect(c.calls).toEqual(['turn.prepare', 'turn.finish']);
    expect(c.session.messages.map((m) => m.content)).toEqual(['hello', 'answer 2']);
    const stored = expectOk(await c.t.engine.call('message.list', { sessionId: c.session.sessionId as string }));
    expect(stored.map((m) => m.content)).toEqual(['hello', 'answer 2']);
  });

  it('Stop while the reply streams: the text so far is kept, as stopped', async () => {
    const c = await chat(scriptedProvider({ reply: () => 'one two three four five six seven eight nine ten', pauseMs: 5 }));
    const sent = c.session.send('count to ten');
    while (c.session.draftReply.length < 8) await new Promise((r) => setTimeout(r, 2));
    c.session.stop();
    await sent;
    const reply = c.session.messages.at(-1);
    expect(reply?.status).toBe('stopped');
    expect(reply?.content.length).toBeGreaterThan(0);
    expect(c.session.error).toBeNull();
    expect(c.jobs).toEqual([]);
  });

  it('without a model: the message is stored and shown, "needs a model" is said, the rules still run after it', async () => {
    const c = await chat(createHeuristicProvider());
    await c.session.send('I prefer tabs over spaces');
    expect(c.session.noModel).toBe(true);
    expect(c.session.messages.map((m) => m.role)).toEqual(['user']);
    expect(c.jobs).toHaveLength(1);
  });

  it('a model error: the page says so and nothing is lost', async () => {
    const { EngineError } = await import('../../../domain/errors');
    const c = await chat(scriptedProvider({ reply: () => 'x', fail: new EngineError('MODEL_UNAVAILABLE', 'down', { reason: 'server-down' }) }));
    await c.session.send('are you there?');
    expect(c.session.error).toBeTruthy();
    expect(c.session.messages.map((m) => m.content)).toEqual(['are you there?']);
  });

  it('no database reachable in an open conversation: the message waits in the outbox and says so', async () => {
    let down = false;
    const c = await chat(scriptedProvider({ reply: () => 'ok' }), { unreachable: () => down });
    await c.session.send('first');
    down = true;
    expect(await c.session.send('second')).toBe(true);
    expect(c.session.queued).toBe('second');
    expect(c.queued).toEqual([{ method: 'message.append', input: { sessionId: c.session.sessionId, role: 'user', content: 'second' } }]);
  });
});
