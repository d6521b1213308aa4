import { describe, expect, it } from 'vitest';
import { EngineError, fail } from '../../domain/errors';
import { createHeuristicProvider } from '../../domain/llm/heuristic';
import type { ModelProvider } from '../../domain/llm/types';
import type { EngineRequest } from '../engine';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import type { PreparedTurn } from '../turn/types';
import { createCaller, type EngineCaller } from './caller';
import { startGeneration, type GenerationDeps } from './generation-run';
import { scriptedProvider } from './testing';

/**
 * The generation module on its own, against a real engine (in-memory SQLite) and a scripted model: a chat
 * turn is one turn.prepare and one turn.finish, whatever happens in between.
 */
interface Rig {
  t: TestEngine;
  engine: EngineCaller;
  /** Every call that reached the engine, in order. */
  calls: string[];
  /** Makes the next `n` turn.finish calls fail as if the worker had just died: before (`lost: false`) or after (`lost: true`) applying. */
  breakFinish(n: number, lost: boolean): void;
}

async function rig(): Promise<Rig> {
  const t = await createTestEngine();
  const calls: string[] = [];
  let broken = 0;
  let lost = false;
  const engine = createCaller({
    call: async (req: EngineRequest) => {
      calls.push(req.method);
      if (req.method === 'turn.finish' && broken > 0) {
        broken--;
        if (lost) await t.engine.handle(req);
        return fail('DB_UNAVAILABLE', 'The database worker is not reachable.');
      }
      return t.engine.handle(req);
    },
  });
  return {
    t,
    engine,
    calls,
    breakFinish(n, l) {
      broken = n;
      lost = l;
    },
  };
}

function chatTurn(r: Rig, provider: ModelProvider, opts: { sessionId?: string; content?: string; phases?: string[]; texts?: string[] } = {}) {
  const deps: GenerationDeps = { engine: r.engine, provider, clock: r.t.clock, sleep: async () => {} };
  return startGeneration<PreparedTurn>(deps, {
    prepare: (requestId) => r.engine.call('turn.prepare', { content: opts.content ?? 'How do I fix processPayment in src/order.ts?', locale: 'en', requestId, ...(opts.sessionId ? { sessionId: opts.sessionId } : {}) }),
    runOf: (p) => (p.context.ok ? { ok: true, run: { runId: p.context.run.runId, messages: p.context.run.messages, agentic: p.agenticSearch } } : { ok: false, error: p.context.error }),
    userMessageId: (p) => p.message.id,
    model: 'test-model',
    onPhase: (ph) => opts.phases?.push(ph),
    onText: (text) => opts.texts?.push(text),
  });
}

const messagesOf = async (r: Rig, sessionId: string) => expectOk(await r.t.engine.call('message.list', { sessionId }));
const pending = async (r: Rig) => expectOk(await r.t.engine.call('turn.afterReplyPending', { olderThanMs: 0 }));

describe('generation-run: one call prepares a turn, one finishes it', () => {
  it('a completed reply: the user message, the context, the stream, then the reply, the run and the after-reply work in one call', async () => {
    const r = await rig();
    const phases: string[] = [];
    const texts: string[] = [];
    r.t.clock.advance(1);
    const out = await chatTurn(r, scriptedProvider({ reply: () => 'Lock the order first.' }), { phases, texts }).done;
    expect(out.kind).toBe('completed');
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(r.calls).toEqual(['turn.prepare', 'turn.finish']);
    expect(phases).toEqual(['preparing', 'streaming', 'finishing', 'done']);
    expect(texts.at(-1)).toBe('Lock the order first.');
    const stored = await messagesOf(r, out.prepared.session.id);
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'How do I fix processPayment in src/order.ts?', 'complete'],
      ['assistant', 'Lock the order first.', 'complete'],
    ]);
    expect(stored[1]?.meta).toMatchObject({ model: 'test-model', runId: out.runId });
    expect(expectOk(await r.t.engine.call('run.get', { runId: out.runId }))).toMatchObject({ status: 'completed', messageId: stored[1]?.id });
    expect(await pending(r)).toEqual([expect.objectContaining({ runId: out.runId, userMessageId: stored[0]?.id, assistantMessageId: stored[1]?.id })]);
  });

  it('Stop while streaming keeps the text so far as a stopped reply; the run is canceled and nothing is queued', async () => {
    const r = await rig();
    const texts: string[] = [];
    const gen = chatTurn(r, scriptedProvider({ reply: () => 'one two three four five six seven eight', pauseMs: 5 }), { texts });
    while (texts.length < 2) await new Promise((res) => setTimeout(res, 2));
    gen.stop();
    const out = await gen.done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out.kind).toBe('stopped');
    expect(out.error?.code).toBe('CANCELED');
    const reply = (await messagesOf(r, out.prepared.session.id))[1];
    expect(reply?.status).toBe('stopped');
    expect(reply?.content).toBe(out.text);
    expect(out.text.length).toBeGreaterThan(0);
    expect(out.text).not.toBe('one two three four five six seven eight');
    expect(expectOk(await r.t.engine.call('run.get', { runId: out.runId })).status).toBe('canceled');
    expect(await pending(r)).toEqual([]);
  });

  it('Stop while the context is built: the message stays, no run is left pending and the model is never asked', async () => {
    const r = await rig();
    let asked = false;
    const gen = chatTurn(r, scriptedProvider({ reply: () => 'never', onRequest: () => (asked = true) }));
    gen.stop();
    const out = await gen.done;
    expect(out).toMatchObject({ kind: 'unprepared', error: { code: 'CANCELED' } });
    expect(asked).toBe(false);
    const sessionId = (out.prepared as PreparedTurn).session.id;
    expect((await messagesOf(r, sessionId)).map((m) => m.role)).toEqual(['user']);
    expect(expectOk(await r.t.engine.call('run.list', { sessionId })).filter((x) => x.status === 'pending')).toEqual([]);
  });

  it('a model that stays silent too long: TIMEOUT, what it wrote is kept as failed, the run timed out', async () => {
    const r = await rig();
    const out = await chatTurn(r, scriptedProvider({ reply: () => 'partial answer here', fail: new EngineError('TIMEOUT', 'The model server stopped answering.'), failAfter: 2 })).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out).toMatchObject({ kind: 'failed', error: { code: 'TIMEOUT' } });
    const reply = (await messagesOf(r, out.prepared.session.id))[1];
    expect(reply).toMatchObject({ status: 'failed', content: out.text, meta: { errorCode: 'TIMEOUT' } });
    expect(expectOk(await r.t.engine.call('run.get', { runId: out.runId })).status).toBe('timeout');
  });

  it('a model error before any text: no reply is stored, the run failed, the reason is kept for the page', async () => {
    const r = await rig();
    const down = new EngineError('MODEL_UNAVAILABLE', 'The model server could not be reached.', { reason: 'server-down' });
    const out = await chatTurn(r, scriptedProvider({ reply: () => 'x', fail: down })).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out).toMatchObject({ kind: 'failed', text: '', error: { code: 'MODEL_UNAVAILABLE', details: { reason: 'server-down' } } });
    expect((await messagesOf(r, out.prepared.session.id)).map((m) => m.role)).toEqual(['user']);
    expect(expectOk(await r.t.engine.call('run.get', { runId: out.runId })).status).toBe('failed');
  });

  it('the database worker restarts mid-stream: the finish is sent again with its op id until it lands, and the reply is stored once', async () => {
    for (const lost of [false, true]) {
      const r = await rig();
      r.breakFinish(2, lost);
      const out = await chatTurn(r, scriptedProvider({ reply: () => 'Stored once.' })).done;
      if (out.kind === 'unprepared') throw new Error('unprepared');
      expect(out.finishError).toBeNull();
      expect(r.calls).toEqual(['turn.prepare', 'turn.finish', 'turn.finish', 'turn.finish']);
      const stored = await messagesOf(r, out.prepared.session.id);
      expect(stored.map((m) => m.content)).toEqual(['How do I fix processPayment in src/order.ts?', 'Stored once.']);
      expect(expectOk(await r.t.engine.call('run.get', { runId: out.runId })).status).toBe('completed');
    }
  });

  it('a database that stays away: the finish gives up after the retries and says why', async () => {
    const r = await rig();
    r.breakFinish(10, false);
    const out = await chatTurn(r, scriptedProvider({ reply: () => 'Lost?' })).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out.finishError?.code).toBe('DB_UNAVAILABLE');
    expect(r.calls.filter((c) => c === 'turn.finish')).toHaveLength(4);
  });

  it('without a model: the turn is stored, the run completes with no reply, the after-reply work (rules) is queued', async () => {
    const r = await rig();
    const out = await chatTurn(r, createHeuristicProvider(), { content: 'I prefer tabs over spaces' }).done;
    if (out.kind === 'unprepared') throw new Error('unprepared');
    expect(out.kind).toBe('no-model');
    expect(r.calls).toEqual(['turn.prepare', 'turn.finish']);
    expect((await messagesOf(r, out.prepared.session.id)).map((m) => m.role)).toEqual(['user']);
    expect(await pending(r)).toEqual([expect.not.objectContaining({ assistantMessageId: expect.anything() })]);
  });

  it('a retry answers the same user message again: its old reply goes, the new one takes its place', async () => {
    const r = await rig();
    const first = await chatTurn(r, scriptedProvider({ reply: () => 'First answer.' })).done;
    if (first.kind === 'unprepared') throw new Error('unprepared');
    const sessionId = first.prepared.session.id;
    const deps: GenerationDeps = { engine: r.engine, provider: scriptedProvider({ reply: () => 'Second answer.' }), clock: r.t.clock };
    const again = await startGeneration<PreparedTurn>(deps, {
      prepare: (requestId) => r.engine.call('turn.prepare', { sessionId, retryOf: first.prepared.message.id, locale: 'en', requestId }),
      runOf: (p) => (p.context.ok ? { ok: true, run: { runId: p.context.run.runId, messages: p.context.run.messages, agentic: false } } : { ok: false, error: p.context.error }),
      userMessageId: (p) => p.message.id,
    }).done;
    if (again.kind === 'unprepared') throw new Error('unprepared');
    expect(again.prepared.removed).toHaveLength(1);
    expect((await messagesOf(r, sessionId)).map((m) => m.content)).toEqual(['How do I fix processPayment in src/order.ts?', 'Second answer.']);
  });
});
