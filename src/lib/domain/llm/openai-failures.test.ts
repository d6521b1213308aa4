import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../log';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../../../../tests/fixtures/fake-openai-server';
import { createOpenAiCompatibleProvider, type ProviderOptions } from './openai-compatible';
import { browserLikeFetch, caught, drain, settingsFor } from './test-helpers';
import type { ModelSettings } from './settings';
import type { ModelProvider } from './types';

const KEY = 'sk-SECRET-key-0123456789';
const PROMPT = 'my private diary entry';
const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(opts: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const server = await startFakeOpenAi(opts);
  servers.push(server);
  return server;
}

/** A base URL where nothing listens: a port that was just released. */
async function closedPort(): Promise<string> {
  const server = await startFakeOpenAi();
  await server.close();
  return server.url;
}

const ask = { messages: [{ role: 'user' as const, content: PROMPT }] };
const chat = (p: ModelProvider) => p.chat(ask);
const stream = (p: ModelProvider) => drain(p.chatStream(ask));

interface Case {
  name: string;
  server?: FakeOpenAiOptions;
  /** Base URL from the server's URL (default: itself); closed port when no server. */
  url?: (u: string) => string;
  settings?: Partial<ModelSettings>;
  provider?: ProviderOptions;
  run: (p: ModelProvider) => Promise<unknown>;
  code: string;
  reason: string;
  status?: number;
  message: RegExp;
}

const cases: Case[] = [
  { name: 'server down (closed port)', run: chat, code: 'MODEL_UNAVAILABLE', reason: 'server-down', message: /No model server answered at http:\/\/127\.0\.0\.1:\d+\. Start it \(e\.g\. `ollama serve`\)/ },
  { name: 'server down, streaming', run: stream, code: 'MODEL_UNAVAILABLE', reason: 'server-down', message: /No model server answered/ },
  {
    name: 'server down seen from a browser (cannot rule out CORS on localhost)',
    provider: { fetch: browserLikeFetch(), pageOrigin: 'http://localhost:5173' },
    run: chat,
    code: 'MODEL_UNAVAILABLE',
    reason: 'server-down',
    message: /Start it .* If it is running, it may be refusing this page: for Ollama, set OLLAMA_ORIGINS=http:\/\/localhost:5173/,
  },
  {
    name: 'CORS refusal seen from a browser',
    server: { cors: false },
    provider: { fetch: browserLikeFetch(), pageOrigin: 'https://engram.example' },
    run: chat,
    code: 'MODEL_UNAVAILABLE',
    reason: 'cors',
    message: /is running but does not allow requests from this page \(CORS\)\. For Ollama, set OLLAMA_ORIGINS=https:\/\/engram\.example/i,
  },
  {
    name: 'unknown model',
    server: { models: ['qwen2.5:7b', 'llama3.2:latest'] },
    settings: { model: 'llama9' },
    run: chat,
    code: 'MODEL_UNAVAILABLE',
    reason: 'unknown-model',
    status: 404,
    message: /The model 'llama9' is not installed .* Pull it \(e\.g\. `ollama pull llama9`\) or pick one of: qwen2\.5:7b, llama3\.2:latest\./,
  },
  { name: 'unknown embedding model', server: {}, settings: { embeddingModel: 'nomic' }, run: (p) => p.embed(['x']), code: 'MODEL_UNAVAILABLE', reason: 'unknown-model', status: 404, message: /The model 'nomic' is not installed .* or pick one of: test-model\./ },
  { name: 'wrong key (401)', server: { apiKey: 'the-right-key' }, run: chat, code: 'MODEL_UNAVAILABLE', reason: 'unauthorized', status: 401, message: /rejected the API key \(HTTP 401\)\. Check the key in Settings/ },
  { name: 'missing key (401)', server: { apiKey: 'the-right-key' }, settings: { apiKey: '' }, run: chat, code: 'MODEL_UNAVAILABLE', reason: 'unauthorized', status: 401, message: /requires an API key \(HTTP 401\)\. Add it in Settings/ },
  { name: 'server error (500)', server: { replies: [{ status: 500 }] }, run: stream, code: 'MODEL_UNAVAILABLE', reason: 'http-error', status: 500, message: /failed while answering \(HTTP 500\)\. Check its log/ },
  { name: 'rate limited (429)', server: { replies: [{ status: 429 }] }, run: chat, code: 'MODEL_UNAVAILABLE', reason: 'http-error', status: 429, message: /busy .* try again/ },
  { name: 'gateway timeout (504)', server: { replies: [{ status: 504 }] }, run: chat, code: 'TIMEOUT', reason: 'timeout', status: 504, message: /did not answer/ },
  {
    name: 'base URL without /v1',
    url: (u) => u.replace(/\/v1$/, ''),
    run: chat,
    code: 'MODEL_UNAVAILABLE',
    reason: 'http-error',
    status: 404,
    message: /has no \/chat\/completions endpoint \(HTTP 404\)\. Check that the base URL ends with \/v1/,
  },
  { name: 'timeout (silent server)', server: { replies: [{ hang: true }] }, settings: { timeoutMs: 150 }, run: chat, code: 'TIMEOUT', reason: 'timeout', message: /did not answer within 150 ms\. It may still be loading the model/ },
  { name: 'timeout of embeddings', server: { replies: () => ({ hang: true }) }, settings: { timeoutMs: 150 }, run: (p) => p.embed(['x']), code: 'TIMEOUT', reason: 'timeout', message: /raise the timeout in Settings/ },
  { name: 'not JSON', server: { replies: [{ rawBody: '<html>proxy page</html>' }] }, run: chat, code: 'MODEL_UNAVAILABLE', reason: 'bad-response', message: /not as an OpenAI-compatible API would/ },
  { name: 'broken stream chunk', server: { replies: [{ rawBody: 'data: {"choices":[{"delta":\n\n' }] }, run: stream, code: 'MODEL_UNAVAILABLE', reason: 'bad-response', message: /OpenAI-compatible/ },
  {
    name: 'stream cut off before the end',
    server: { replies: [{ rawBody: 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n' }] },
    run: stream,
    code: 'MODEL_UNAVAILABLE',
    reason: 'http-error',
    message: /stopped in the middle of its answer/,
  },
  {
    name: 'error chunk mid-stream',
    server: { replies: [{ rawBody: 'data: {"error":{"message":"CUDA out of memory near my private diary entry"}}\n\n' }] },
    run: stream,
    code: 'MODEL_UNAVAILABLE',
    reason: 'http-error',
    message: /stopped in the middle of its answer/,
  },
  { name: 'embeddings of the wrong count', server: { replies: () => ({ rawBody: '{"data":[{"embedding":[1]}]}' }) }, run: (p) => p.embed(['a', 'b']), code: 'MODEL_UNAVAILABLE', reason: 'bad-response', message: /\/embeddings/ },
];

describe('openai-compatible failures', () => {
  it.each(cases)('$name → $code/$reason', async (c) => {
    const base = c.server || c.url ? (await start(c.server)).url : await closedPort();
    const logger = memoryLogger();
    const settings = settingsFor(c.url ? c.url(base) : base, { apiKey: KEY, ...c.settings });
    const provider = createOpenAiCompatibleProvider(settings, { logger, ...c.provider });
    const err = await caught(() => c.run(provider));
    expect(err.code).toBe(c.code);
    expect(err.details).toEqual({ reason: c.reason, ...(c.status ? { status: c.status } : {}) });
    expect(err.message).toMatch(c.message);
    // Never the key, never the prompt, never the server's own error text.
    for (const secret of [KEY, PROMPT, 'CUDA']) expect(err.message).not.toContain(secret);
    expect(JSON.stringify(logger.lines)).not.toContain(KEY);
    expect(JSON.stringify(logger.lines)).not.toContain(PROMPT);
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', event: 'llm.failed', fields: expect.objectContaining({ reason: c.reason }) })]);
  });

  it('redacts the key even when it was pasted into the model field', async () => {
    const server = await start();
    const provider = createOpenAiCompatibleProvider(settingsFor(server.url, { apiKey: KEY, model: KEY }));
    const err = await caught(() => provider.chat(ask));
    expect(err.details).toMatchObject({ reason: 'unknown-model' });
    expect(err.message).not.toContain(KEY);
    expect(err.message).toContain("The model '***'");
  });

  it('does not follow a redirect, so the key cannot travel to another server', async () => {
    const elsewhere = await start();
    const server = await start({ replies: [{ status: 302, headers: { Location: `${elsewhere.url}/chat/completions` } }] });
    const provider = createOpenAiCompatibleProvider(settingsFor(server.url, { apiKey: KEY }));
    const err = await caught(() => provider.chat(ask));
    expect(err.details).toEqual({ reason: 'http-error', status: 302 });
    expect(err.message).toMatch(/redirected the request .* Put the final address/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('tells a user stop (CANCELED) from a timeout (TIMEOUT) on the same silent server', async () => {
    const server = await start({ replies: () => ({ hang: true }) });
    const provider = createOpenAiCompatibleProvider(settingsFor(server.url, { timeoutMs: 300 }));
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const started = Date.now();
    const canceled = await caught(() => provider.chat({ ...ask, signal: stop.signal }));
    expect(canceled.code).toBe('CANCELED');
    expect(Date.now() - started).toBeLessThan(250);
    const timedOut = await caught(() => provider.chat(ask));
    expect(timedOut.code).toBe('TIMEOUT');
    const already = await caught(() => drain(provider.chatStream({ ...ask, signal: AbortSignal.abort() })));
    expect(already.code).toBe('CANCELED');
  });

  it('reports failures of the connection test as data', async () => {
    const url = await closedPort();
    const provider = createOpenAiCompatibleProvider(settingsFor(url), { now: () => 0 });
    expect(await provider.testConnection()).toEqual({
      ok: false,
      models: [],
      modelFound: null,
      latencyMs: 0,
      error: { code: 'MODEL_UNAVAILABLE', reason: 'server-down', message: expect.stringMatching(/No model server answered/) },
    });
  });

  it('works through a browser-like fetch when the server allows CORS', async () => {
    const server = await start({ replies: [{ text: 'hello there' }] });
    const provider = createOpenAiCompatibleProvider(settingsFor(server.url), { fetch: browserLikeFetch() });
    expect((await provider.chat(ask)).text).toBe('hello there');
    expect((await provider.testConnection()).ok).toBe(true);
  });
});
