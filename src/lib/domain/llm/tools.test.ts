import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import { EngineError } from '../errors';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions, type RecordedRequest } from '../../../../tests/fixtures/fake-openai-server';
import { createOpenAiCompatibleProvider } from './openai-compatible';
import { createSearchMemoriesTool, type SearchMemoriesQuery } from './search-memories-tool';
import { caught, settingsFor } from './test-helpers';
import { runWithTools, type Tool } from './tools';
import type { ToolCall } from './types';

const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(opts: FakeOpenAiOptions) {
  const server = await startFakeOpenAi(opts);
  servers.push(server);
  return { server, provider: createOpenAiCompatibleProvider(settingsFor(server.url)) };
}

const request = { messages: [{ role: 'user' as const, content: 'What language do I like?' }] };
const sentMessages = (r: RecordedRequest | undefined) => (r?.body as { messages: Record<string, unknown>[] }).messages;
const toolMessage = (r: RecordedRequest | undefined) => sentMessages(r).find((m) => m.role === 'tool');

function memorySearch() {
  const queries: SearchMemoriesQuery[] = [];
  const tool = createSearchMemoriesTool({
    clock: fixedClock(Date.UTC(2025, 5, 1)),
    search: async (q) => {
      queries.push(q);
      return [{ id: 'm1', content: 'prefers Python' }];
    },
  });
  return { queries, tools: { search_memories: tool } };
}

describe('runWithTools', () => {
  it.each([false, true])('runs search_memories(keyword, timeRange) and lets the model continue (streamed: %s)', async (streamed) => {
    const { server, provider } = await setup({
      replies: [
        { toolCalls: [{ name: 'search_memories', arguments: { keyword: 'language', timeRange: { from: '2025-01-01', to: '2025-01-31' } } }] },
        { text: 'You prefer Python.' },
      ],
    });
    const { queries, tools } = memorySearch();
    const calls: [ToolCall, unknown][] = [];
    const deltas: string[] = [];
    const { result, transcript } = await runWithTools({
      provider,
      request,
      tools,
      onToolCall: (call, out) => calls.push([call, out]),
      ...(streamed ? { onDelta: (t: string) => deltas.push(t) } : {}),
    });
    expect(result.text).toBe('You prefer Python.');
    expect(queries).toEqual([{ keyword: 'language', fromMs: Date.UTC(2025, 0, 1), toMs: Date.UTC(2025, 0, 31, 23, 59, 59, 999) }]);
    expect(calls.map(([c, out]) => [c.name, out])).toEqual([['search_memories', [{ id: 'm1', content: 'prefers Python' }]]]);
    expect(deltas.join('')).toBe(streamed ? 'You prefer Python.' : '');
    // The second request carries the model's call and our answer to it.
    expect(sentMessages(server.requests[1]).slice(1)).toEqual([
      expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'call_1', function: expect.objectContaining({ name: 'search_memories' }) })] }),
      { role: 'tool', tool_call_id: 'call_1', name: 'search_memories', content: '[{"id":"m1","content":"prefers Python"}]' },
    ]);
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it.each([
    ['an unknown tool', { name: 'delete_everything', arguments: {} }, /Unknown tool 'delete_everything'\. Available tools: search_memories/],
    ['arguments that are not JSON', { name: 'search_memories', arguments: '{"keyword": ' }, /were not valid JSON/],
    ['arguments without the keyword', { name: 'search_memories', arguments: { timeRange: 'last_7_days' } }, /Invalid `search_memories\.keyword`/],
    ['a range that ends before it starts', { name: 'search_memories', arguments: { keyword: 'x', timeRange: { from: '2025-02-01', to: '2025-01-01' } } }, /`from` is after `to`/],
  ])('answers %s with an error the model can read', async (_label, call, message) => {
    const { server, provider } = await setup({ replies: [{ toolCalls: [call] }, { text: 'Sorry.' }] });
    const { queries, tools } = memorySearch();
    const { result } = await runWithTools({ provider, request, tools });
    expect(result.text).toBe('Sorry.');
    expect(queries).toEqual([]);
    const content = JSON.parse(String(toolMessage(server.requests[1])?.content)) as { error: string };
    expect(content.error).toMatch(message);
  });

  it('hides the details of a tool that crashes', async () => {
    const { server, provider } = await setup({ replies: [{ toolCalls: [{ name: 'boom', arguments: {} }] }, { text: 'ok' }] });
    const boom: Tool = { spec: { name: 'boom', description: 'd', parameters: {} }, run: async () => { throw new Error('secret stack detail'); } };
    await runWithTools({ provider, request, tools: { boom } });
    expect(toolMessage(server.requests[1])?.content).toBe('{"error":"The tool \'boom\' failed. Answer without it."}');
  });

  it('stops offering tools after maxRounds, so a looping model must answer', async () => {
    const { server, provider } = await setup({
      replies: (req) => ((req.body as { tools?: unknown }).tools ? { toolCalls: [{ name: 'search_memories', arguments: { keyword: 'x' } }] } : { text: 'Final.' }),
    });
    const { queries, tools } = memorySearch();
    const { result, transcript } = await runWithTools({ provider, request, tools, maxRounds: 2 });
    expect(result).toMatchObject({ text: 'Final.', toolCalls: [] });
    expect(queries).toHaveLength(2);
    expect(server.requests.map((r) => Boolean((r.body as { tools?: unknown }).tools))).toEqual([true, true, false]);
    expect(transcript.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('ends with CANCELED when the user stops while a tool runs', async () => {
    const { server, provider } = await setup({ replies: [{ toolCalls: [{ name: 'slow', arguments: {} }] }, { text: 'never' }] });
    const stop = new AbortController();
    const slow: Tool = {
      spec: { name: 'slow', description: 'd', parameters: {} },
      run: async (_args, signal) => {
        stop.abort();
        if (signal?.aborted) throw new EngineError('CANCELED', 'stopped');
        return 'late';
      },
    };
    const err = await caught(() => runWithTools({ provider, request: { ...request, signal: stop.signal }, tools: { slow } }));
    expect(err.code).toBe('CANCELED');
    expect(server.requests).toHaveLength(1);
  });
});
