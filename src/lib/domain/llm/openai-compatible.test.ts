import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../../../../tests/fixtures/fake-openai-server';
import { createOpenAiCompatibleProvider } from './openai-compatible';
import { caught, drain, settingsFor } from './test-helpers';
import type { ModelSettings } from './settings';
import type { StreamEvent } from './types';

const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(opts: FakeOpenAiOptions = {}, patch: Partial<ModelSettings> = {}) {
  const server = await startFakeOpenAi(opts);
  servers.push(server);
  const provider = createOpenAiCompatibleProvider(settingsFor(server.url, patch));
  return { server, provider };
}

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] });

describe('openai-compatible streaming', () => {
  it('streams the reply piece by piece, then done with usage', async () => {
    const { provider } = await setup({ replies: [{ chunks: ['Hel', 'lo, ', '世界'] }] });
    const events = await drain(provider.chatStream(ask('hi')));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text)).toEqual(['Hel', 'lo, ', '世界']);
    const done = events.at(-1) as Extract<StreamEvent, { type: 'done' }>;
    expect(done.type).toBe('done');
    expect(done.finishReason).toBe('stop');
    expect(done.usage?.completionTokens).toBeGreaterThan(0);
  });

  it('stops promptly when the user aborts mid-stream, and releases the connection', async () => {
    const { server, provider } = await setup({ replies: [{ chunks: ['one ', 'two '], hang: true }] });
    const stop = new AbortController();
    const seen: string[] = [];
    const started = Date.now();
    const err = await caught(async () => {
      for await (const ev of provider.chatStream({ ...ask('hi'), signal: stop.signal })) {
        if (ev.type === 'delta') seen.push(ev.text);
        if (seen.length === 2) stop.abort();
      }
    });
    expect(err.code).toBe('CANCELED');
    expect(seen).toEqual(['one ', 'two ']);
    expect(Date.now() - started).toBeLessThan(500);
    await expect.poll(() => server.active(), { timeout: 500, interval: 10 }).toBe(0);
  });

  it('releases the connection when the consumer leaves the loop early', async () => {
    const { server, provider } = await setup({ replies: [{ chunks: ['a ', 'b '], hang: true }] });
    for await (const ev of provider.chatStream(ask('hi'))) if (ev.type === 'delta') break;
    await expect.poll(() => server.active(), { timeout: 500, interval: 10 }).toBe(0);
  });

  it('times out on silence but not on a slow, steady stream', async () => {
    const { provider } = await setup({
      replies: [{ chunks: ['a', 'b', 'c', 'd', 'e'], chunkDelayMs: 50 }, { chunks: ['a'], hang: true }],
    });
    // 7 writes 50 ms apart take longer than the timeout, but no single silence does.
    const steady = await drain(provider.chatStream({ ...ask('hi'), timeoutMs: 250 }));
    expect(steady.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop' });
    const err = await caught(() => drain(provider.chatStream({ ...ask('hi'), timeoutMs: 250 })));
    expect(err.code).toBe('TIMEOUT');
    expect(err.details).toMatchObject({ reason: 'timeout' });
  });

  it('assembles streamed tool-call fragments into whole calls', async () => {
    const args = { keyword: 'Python', timeRange: { from: '2025-01-01' } };
    const { provider } = await setup({ replies: [{ toolCalls: [{ name: 'search_memories', arguments: args }, { name: 'noop', arguments: {} }] }] });
    const events = await drain(provider.chatStream(ask('hi')));
    const calls = events.find((e) => e.type === 'tool_calls');
    expect(calls).toEqual({
      type: 'tool_calls',
      calls: [
        { id: 'call_1', name: 'search_memories', arguments: JSON.stringify(args) },
        { id: 'call_2', name: 'noop', arguments: '{}' },
      ],
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
  });

  it('accepts a server that ignores stream:true and answers with one JSON body', async () => {
    const body = JSON.stringify({ choices: [{ message: { content: 'whole answer' }, finish_reason: 'stop' }] });
    const { provider } = await setup({ replies: [{ rawBody: body, headers: { 'Content-Type': 'application/json' } }] });
    expect(await drain(provider.chatStream(ask('hi')))).toEqual([
      { type: 'delta', text: 'whole answer' },
      { type: 'done', finishReason: 'stop' },
    ]);
  });
});

describe('openai-compatible requests', () => {
  it('sends the OpenAI wire format: stream options, tools, tool results, limits', async () => {
    const { server, provider } = await setup({ replies: [{ text: 'ok' }] });
    await drain(
      provider.chatStream({
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'search_memories', arguments: '{"keyword":"x"}' }] },
          { role: 'tool', content: '[]', toolCallId: 'c1', name: 'search_memories' },
        ],
        tools: [{ name: 'search_memories', description: 'd', parameters: { type: 'object' } }],
        temperature: 0.2,
        maxTokens: 64,
      }),
    );
    expect(server.requests[0]?.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 64,
      tools: [{ type: 'function', function: { name: 'search_memories', description: 'd', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search_memories', arguments: '{"keyword":"x"}' } }] },
        { role: 'tool', content: '[]', tool_call_id: 'c1', name: 'search_memories' },
      ],
    });
  });

  it.each([
    ['a key', 'sk-test-key', 'Bearer sk-test-key'],
    ['no key', '', undefined],
  ])('with %s, Authorization is %s', async (_label, apiKey, expected) => {
    const { server, provider } = await setup({ replies: [{ text: 'ok' }] }, { apiKey });
    await provider.chat(ask('hi'));
    await provider.embed(['x']);
    await provider.testConnection();
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([expected, expected, expected]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/chat/completions',
      'POST /v1/embeddings',
      'GET /v1/models',
    ]);
  });

  it('chat returns text, tool calls and usage from a non-streamed answer', async () => {
    const { server, provider } = await setup({ replies: [{ text: 'Sure.', toolCalls: [{ name: 'search_memories', arguments: { keyword: 'tea' } }] }] });
    const result = await provider.chat(ask('hi'));
    expect(server.requests[0]?.body).toMatchObject({ stream: false });
    expect(result).toMatchObject({
      text: 'Sure.',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'call_1', name: 'search_memories', arguments: '{"keyword":"tea"}' }],
    });
    expect(result.usage?.promptTokens).toBeGreaterThan(0);
  });

  it('does not call the server when no model is chosen', async () => {
    const { server, provider } = await setup({}, { model: '' });
    const err = await caught(() => provider.chat(ask('hi')));
    expect(err.details).toMatchObject({ reason: 'no-model-configured' });
    expect(err.message).toMatch(/Pick one in Settings/);
    expect(server.requests).toEqual([]);
  });
});

describe('openai-compatible JSON output', () => {
  const schema = z.object({ title: z.string(), tags: z.array(z.string()) });

  it.each([
    ['plain JSON', { json: { title: 'T', tags: ['a'] } }],
    ['a ```json fence', { text: 'Here you go:\n```json\n{"title":"T","tags":["a"]}\n```' }],
    ['a think block first', { text: '<think>{"no": 1}</think>{"title":"T","tags":["a"]}' }],
  ])('accepts %s', async (_label, reply) => {
    const { server, provider } = await setup({ replies: [reply] });
    expect(await provider.json(ask('summarise'), schema)).toEqual({ title: 'T', tags: ['a'] });
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_object' }, stream: false });
  });

  it.each([
    ['the wrong shape', { json: { title: 'T', tags: 'a' } }, /invalid `tags`/],
    ['no JSON at all', { text: 'I cannot do that.' }, /did not answer with JSON/],
  ])('rejects %s as bad-response', async (_label, reply, message) => {
    const { provider } = await setup({ replies: [reply] });
    const err = await caught(() => provider.json(ask('summarise'), schema));
    expect(err.code).toBe('MODEL_UNAVAILABLE');
    expect(err.details).toMatchObject({ reason: 'bad-response' });
    expect(err.message).toMatch(message);
    expect(err.message).not.toMatch(/cannot do that/);
  });
});

describe('openai-compatible embeddings', () => {
  const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

  it('returns one vector per text, in order, from the embedding model', async () => {
    const { server, provider } = await setup({ models: ['test-model', 'embed-model'], embeddingDims: 32 }, { embeddingModel: 'embed-model' });
    const [a, b, c] = await provider.embed(['I like Python code', 'Python code is nice', 'weather in Paris']);
    expect(server.requests[0]?.body).toEqual({ model: 'embed-model', input: ['I like Python code', 'Python code is nice', 'weather in Paris'] });
    expect([a, b, c].map((v) => v?.length)).toEqual([32, 32, 32]);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
  });

  it('falls back to the chat model and skips the call for an empty batch', async () => {
    const { server, provider } = await setup();
    expect(await provider.embed([])).toEqual([]);
    expect(server.requests).toEqual([]);
    await provider.embed(['x']);
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-model' });
  });
});

describe('openai-compatible test connection', () => {
  it.each<[string, string, string[], { ok: boolean; modelFound: boolean | null; reason?: string }, RegExp | undefined]>([
    ['the model is installed', 'test-model', ['test-model'], { ok: true, modelFound: true }, undefined],
    ["Ollama's :latest tag", 'llama3.2', ['llama3.2:latest'], { ok: true, modelFound: true }, undefined],
    ['the model is missing', 'llama9', ['a', 'b'], { ok: false, modelFound: false, reason: 'unknown-model' }, /'llama9' is not installed .* pick one of: a, b\./],
    ['no model is chosen', '', ['a'], { ok: false, modelFound: null, reason: 'no-model-configured' }, /Pick one in Settings/],
  ])('reports when %s', async (_label, model, models, expected, advice) => {
    const ticks = [1000, 1042];
    const server = await startFakeOpenAi({ models });
    servers.push(server);
    const provider = createOpenAiCompatibleProvider(settingsFor(server.url, { model }), { now: () => ticks.shift() ?? 0 });
    const report = await provider.testConnection();
    expect(report).toMatchObject({ ok: expected.ok, modelFound: expected.modelFound, models, latencyMs: 42 });
    expect(report.error?.reason).toBe(expected.reason);
    if (advice) expect(report.error?.message).toMatch(advice);
    else expect(report.error).toBeUndefined();
  });
});
