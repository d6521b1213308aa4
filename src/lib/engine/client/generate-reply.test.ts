import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi, type RecordedRequest } from '../../../../tests/fixtures/fake-openai-server';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { createTestEngine, expectOk } from '../testing';
import { generateReply } from './generate-reply';

type Body = { messages: { role: string; content: string }[]; tools?: { function: { name: string } }[] };
const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A chat turn with a stored memory, built through the real engine; the scripted model server answers. */
async function setup(agentic: boolean) {
  const t = await createTestEngine();
  const server = await startFakeOpenAi({
    replies: [{ toolCalls: [{ name: 'search_memories', arguments: { keyword: 'Python' } }] }, { text: 'You package Python with uv.' }],
  });
  servers.push(server);
  const packaging = expectOk(await t.engine.call('memory.create', { content: 'Python 打包用 uv' }));
  const unrelated = expectOk(await t.engine.call('memory.create', { content: '喜欢在周末爬山' }));
  expectOk(await t.engine.call('settings.update', { patch: { 'memory.enable_agentic_search': agentic, 'memory.rag_top_n': 0 } }));
  const s = expectOk(await t.engine.call('session.create', {}));
  const run = expectOk(await t.engine.call('context.build', { kind: 'chat', sessionId: s.id, message: 'How do I package my project?', locale: 'en' }));
  const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
  let streamed = '';
  const reply = () =>
    generateReply({ engine: t.engine, provider, messages: run.messages, runId: run.runId, signal: new AbortController().signal, clock: t.clock, onDelta: (d) => (streamed += d) });
  return { t, server, run, packaging, unrelated, reply, streamed: () => streamed };
}

const chats = (server: FakeOpenAi): Body[] => server.requests.filter((r: RecordedRequest) => r.path.endsWith('/chat/completions')).map((r) => r.body as Body);

describe('000 主动记忆搜索 in a chat turn (scripted OpenAI-compatible server, real engine)', () => {
  it('with memory.enable_agentic_search on, the model’s search_memories call is answered, counted as used and stored with the run', async () => {
    const { t, server, run, packaging, unrelated, reply, streamed } = await setup(true);
    expect(run.memoryIds).toEqual([]); // rag_top_n 0: nothing came through L4
    const out = await reply();
    expect(out).toEqual({ text: 'You package Python with uv.', toolMemoryIds: [packaging.id] });
    expect(streamed()).toBe('You package Python with uv.');

    const [first, second] = chats(server);
    expect(first?.tools?.map((x) => x.function.name)).toEqual(['search_memories']);
    const toolMessage = second?.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('Python 打包用 uv');
    expect(toolMessage?.content).not.toContain('爬山');

    // 001 access tracking: what the model was shown is marked used, nothing else.
    const got = expectOk(await t.engine.call('memory.getMany', { ids: [packaging.id, unrelated.id] }));
    expect(got.map((m) => [m.accessCount, m.lastAccessed])).toEqual([
      [1, t.clock.now()],
      [0, null],
    ]);
    // The inspector's record of the run holds it.
    expect(expectOk(await t.engine.call('run.get', { runId: run.runId }))).toMatchObject({ memoryIds: [packaging.id], toolMemoryIds: [packaging.id] });
  });

  it('with it off, no tool is offered and nothing is searched', async () => {
    const { t, server, run, packaging, reply } = await setup(false);
    const out = await reply();
    expect(out.toolMemoryIds).toEqual([]);
    expect(chats(server)).toHaveLength(1);
    expect(chats(server)[0]?.tools).toBeUndefined();
    expect(expectOk(await t.engine.call('memory.getMany', { ids: [packaging.id] }))[0]?.accessCount).toBe(0);
    expect(expectOk(await t.engine.call('run.get', { runId: run.runId })).toolMemoryIds).toEqual([]);
  });

  it('a tool search for a run that is no longer generating is refused', async () => {
    const { t, run } = await setup(true);
    expectOk(await t.engine.call('run.complete', { runId: run.runId, status: 'completed' }));
    expect(await t.engine.call('memory.search', { keyword: 'Python', runId: run.runId })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await t.engine.call('memory.search', { keyword: 'Python', runId: 'no-such-run' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
