/**
 * Meaning-based recall end to end in the engine (issue 18), against the deterministic fake embeddings server of
 * tests/fixtures (its synonym groups make a paraphrase close in meaning while sharing no word): the background fill,
 * a model change, an endpoint that fails mid-fill, fusion with the lexical ranking, and degradation to lexical.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../tests/fixtures/fake-openai-server';
import { createCaller } from '../client/caller';
import { fixedClock } from '../../domain/clock';
import { embeddingsEndpoint, embeddingsJob, EMBED_BATCH } from '../jobs/embeddings-job';
import { createScheduler } from '../jobs/scheduler';
import type { JobProgress } from '../jobs/types';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { embedWithProvider } from './index';
import type { EmbeddingEndpoint } from './semantic-service';

const SYNONYMS = [
  ['dog', 'puppy', 'pup'],
  ['adopt', 'adopted', 'got'],
  ['shelter', 'rescue'],
];
const MODELS = ['nomic-embed-text', 'bge-m3', 'test-model'];

let server: FakeOpenAi;
let t: TestEngine;

beforeEach(async () => {
  server = await startFakeOpenAi({ models: MODELS, synonyms: SYNONYMS, embeddingDims: 96 });
  t = await createTestEngine();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
});

const endpoint = (model = 'nomic-embed-text', baseUrl = server.url): EmbeddingEndpoint => ({ baseUrl, apiKey: '', model, timeoutMs: 5000 });

async function chat(lines: readonly string[]): Promise<string> {
  const s = expectOk(await t.engine.call('session.create', { title: 'chat' }));
  for (const [i, content] of lines.entries()) expectOk(await t.engine.call('message.append', { sessionId: s.id, role: i % 2 === 0 ? 'user' : 'assistant', content }));
  return s.id;
}

/** One run of the jobs worker's fill, as the scheduler runs it. */
async function fill(current: EmbeddingEndpoint | null): Promise<Record<string, unknown> | null> {
  const engine = createCaller({ call: (req) => t.engine.handle(req) });
  const progress: JobProgress[] = [];
  return embeddingsJob({ endpoint: () => current, embed: embedWithProvider }).run({
    engine,
    trigger: 'demand',
    progress: (fraction, step) => progress.push({ job: 'embeddings', fraction, step, state: 'running' }),
    signal: new AbortController().signal,
  });
}

const ask = async (query: string) => expectOk(await t.engine.call('recall.search', { query, limit: 5 }));
const configure = async (e: EmbeddingEndpoint | null) => expectOk(await t.engine.call('embeddings.configure', { endpoint: e }));
const PUPPY = 'We got a little pup from the rescue in April, she sleeps all day.';

const HISTORY = [PUPPY, 'How lovely, a calm one is a good start.', 'The kitchen tap is leaking again.', 'A new washer usually fixes that.', 'I finished the quarterly tax forms.', 'Well done, that is a chore off the list.'];

describe('meaning-based recall (issue 18)', () => {
  it('is off without an embedding model, and lexical recall misses the paraphrase', async () => {
    await chat(HISTORY);
    const res = await ask('When did I adopt my dog from the shelter?');
    expect(res.query.semantic).toEqual({ state: 'off', model: null, reason: null, coverage: null });
    expect(res.results.some((r) => r.content === PUPPY)).toBe(false);
    expect(expectOk(await t.engine.call('embeddings.status', {})).state).toBe('off');
    expect(await fill(null)).toBeNull();
  });

  it('fills vectors in the background, then finds the paraphrase through the fused ranking', async () => {
    await chat(HISTORY);
    expect(await configure(endpoint())).toMatchObject({ model: 'nomic-embed-text', state: 'filling', embedded: 0, total: 6 });
    // Nothing embedded yet: degraded to lexical, visibly.
    const early = await ask('When did I adopt my dog from the shelter?');
    expect(early.query.semantic).toMatchObject({ state: 'degraded', reason: 'no-vectors' });
    expect(t.log.lines.some((l) => l.event === 'recall.semantic-degraded' && l.fields?.reason === 'no-vectors')).toBe(true);

    expect(await fill(endpoint())).toMatchObject({ model: 'nomic-embed-text', embedded: 6, total: 6, done: 6 });
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ state: 'ready', embedded: 6, total: 6 });
    const res = await ask('When did I adopt my dog from the shelter?');
    expect(res.query.semantic).toMatchObject({ state: 'on', model: 'nomic-embed-text' });
    const hit = res.results.find((r) => r.content === PUPPY);
    expect(hit?.explain.signals.lane).toBe('semantic');
    expect(hit?.explain.signals.semanticRank).toBe(1);
    expect(res.results[0]?.content).toBe(PUPPY);
    // The conversation ranking hears of meaning too.
    expect(res.conversations[0]?.conversationId).toBe(hit?.conversationId);
    // A second fill finds nothing left to do.
    expect(await fill(endpoint())).toBeNull();
  });

  it('calls nothing but the configured endpoint', async () => {
    const urls: string[] = [];
    const real = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return real(input, init);
    });
    await chat(HISTORY);
    await configure(endpoint());
    await fill(endpoint());
    await ask('When did I adopt my dog from the shelter?');
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((u) => u === `${server.url}/embeddings`)).toBe(true);
    expect(server.requests.map((r) => `${r.method} ${r.path}`).every((r) => r === 'POST /v1/embeddings')).toBe(true);
    expect(server.requests.every((r) => (r.body as { model?: string }).model === 'nomic-embed-text')).toBe(true);
  });

  it('re-embeds everything when the model changes, keeping one model’s vectors', async () => {
    await chat(HISTORY);
    await configure(endpoint());
    await fill(endpoint());
    expect(await configure(endpoint('bge-m3'))).toMatchObject({ model: 'bge-m3', state: 'filling', embedded: 0 });
    // Until the new model has vectors, recall is lexical (the old model's vectors never answer the new model's question).
    expect((await ask('When did I adopt my dog?')).query.semantic).toMatchObject({ state: 'degraded', model: 'bge-m3', reason: 'no-vectors' });
    expect(await fill(endpoint('bge-m3'))).toMatchObject({ model: 'bge-m3', embedded: 6 });
    expect(t.driver.all<{ name: string }>('SELECT name FROM embedding_models')).toEqual([{ name: 'bge-m3' }]);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings')?.n).toBe(6);
    expect((await ask('When did I adopt my dog from the shelter?')).query.semantic.state).toBe('on');
  });

  /** The jobs worker's wiring: the page's endpoint setting, the fill and a scheduler on a clock that never moves. */
  function jobsWorker(embed: typeof embedWithProvider = embedWithProvider) {
    const setting = embeddingsEndpoint();
    const asked: string[] = [];
    const job = embeddingsJob({ endpoint: setting.get, embed: (e, texts, o) => (asked.push(e.model), embed(e, texts, o)) });
    const scheduler = createScheduler({ jobs: [job], engine: createCaller({ call: (req) => t.engine.handle(req) }), clock: fixedClock(t.clock.now()), onProgress: () => {} });
    return { setting, scheduler, asked };
  }

  it('a model change while a fill runs: the old run stops at its next batch and the new model’s vectors are filled at once, with no periodic tick', async () => {
    await chat(HISTORY);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const { setting, scheduler, asked } = jobsWorker(async (e, texts, o) => {
      if (e.model === 'nomic-embed-text') await held; // the old model's request is in flight when the model changes
      return embedWithProvider(e, texts, o);
    });
    expect(setting.attach(scheduler)).toBeNull();
    await configure(endpoint());
    const old = setting.set(endpoint());
    await vi.waitFor(() => expect(asked).toEqual(['nomic-embed-text']));
    await configure(endpoint('bge-m3'));
    const next = setting.set(endpoint('bge-m3'));
    expect(setting.set(endpoint('bge-m3'))).toBeNull(); // the same endpoint again changes nothing
    release();
    // The old run stored nothing for a model no longer in force, and the new model's run followed it.
    expect((await old)?.result).toBeUndefined();
    expect((await next)?.result).toMatchObject({ model: 'bge-m3', embedded: 6, done: 6 });
    expect(asked).toEqual(['nomic-embed-text', 'bge-m3']);
    expect(t.driver.all<{ name: string }>('SELECT name FROM embedding_models')).toEqual([{ name: 'bge-m3' }]);
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ model: 'bge-m3', state: 'ready', embedded: 6, total: 6 });
  });

  it('an endpoint set before the scheduler exists is filled as soon as it starts', async () => {
    await chat(HISTORY);
    const { setting, scheduler, asked } = jobsWorker();
    await configure(endpoint());
    expect(setting.set(endpoint())).toBeNull();
    expect(asked).toEqual([]);
    expect((await setting.attach(scheduler))?.result).toMatchObject({ model: 'nomic-embed-text', embedded: 6 });
    expect(setting.attach(scheduler)).toBeNull(); // once
  });

  it('keeps what was embedded when the endpoint fails mid-fill, and resumes where it stopped', async () => {
    const lines = Array.from({ length: EMBED_BATCH + 8 }, (_, i) => (i === 0 ? PUPPY : `Note number ${i} about the garden.`));
    await chat(lines);
    let calls = 0;
    server.setReplies(() => (++calls >= 2 ? { status: 503 } : {}));
    await configure(endpoint());
    await expect(fill(endpoint())).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ embedded: EMBED_BATCH, total: EMBED_BATCH + 8, state: 'filling' });
    server.setReplies(() => ({}));
    expect(await fill(endpoint())).toMatchObject({ embedded: 8, done: EMBED_BATCH + 8 });
    // The vectors of the first run were not asked for again.
    const embeddedTexts = server.requests.flatMap((r) => ((r.body as { input?: string[] }).input ?? []));
    expect(embeddedTexts.filter((x) => x === PUPPY)).toHaveLength(1);
  });

  it('003 向量索引故障时的语义召回降级: the endpoint unreachable, recall falls back to words, logs the event and says so, and does not wait on the endpoint again at once', async () => {
    await chat(HISTORY);
    await configure(endpoint());
    await fill(endpoint());
    await server.close();
    const res = await ask('Which washer fixes the kitchen tap?');
    expect(res.query.semantic).toMatchObject({ state: 'degraded', model: 'nomic-embed-text' });
    expect(res.query.semantic.reason).toBeTruthy();
    expect(res.results[0]?.content).toBe('The kitchen tap is leaking again.');
    expect(t.log.lines.filter((l) => l.event === 'recall.semantic-degraded')).toHaveLength(1);
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ state: 'degraded' });
    // Within semanticRetryMs the endpoint is not asked again: the next question answers lexically without waiting.
    const again = await ask('tax forms');
    expect(again.query.semantic.state).toBe('degraded');
    // No user text is logged.
    expect(JSON.stringify(t.log.lines)).not.toContain('kitchen');
    server = await startFakeOpenAi({ models: MODELS, synonyms: SYNONYMS, embeddingDims: 96 });
  });

  it('degrades to lexical when the model is unknown to the server', async () => {
    await chat(HISTORY);
    await configure(endpoint());
    await fill(endpoint());
    await configure(endpoint('nomic-embed-text', server.url)); // unchanged: keeps the vectors
    await configure({ ...endpoint(), model: 'nomic-embed-text', apiKey: 'changed' });
    const s = t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM embeddings')?.n;
    expect(s).toBe(6);
    await configure(endpoint('not-installed'));
    const res = await ask('tap leaking');
    expect(res.query.semantic).toMatchObject({ state: 'degraded', reason: 'no-vectors' });
    expect(res.results[0]?.content).toBe('The kitchen tap is leaking again.');
  });

  it('fuses meaning into memory retrieval: a memory in other words is found', async () => {
    const mem = expectOk(await t.engine.call('memory.create', { category: 'fact', content: 'Has a pup from the rescue named Bao.' }));
    expectOk(await t.engine.call('memory.create', { category: 'fact', content: 'The kitchen tap leaks.' }));
    const lexical = expectOk(await t.engine.call('memory.retrieve', { query: 'my dog', topN: 5 }));
    expect(lexical.items.some((i) => i.memory.id === mem.id)).toBe(false);
    await configure(endpoint());
    await fill(endpoint());
    const fused = expectOk(await t.engine.call('memory.retrieve', { query: 'my dog', topN: 5 }));
    expect(fused.semantic).toMatchObject({ state: 'on' });
    const found = fused.items.find((i) => i.memory.id === mem.id);
    expect(found?.via).toBe('semantic');
    expect(found?.score.keywordParts?.semantic).toBeGreaterThan(0);
  });

  it('a question embedded while it is typed is not asked for again when it is sent, and a recall meanwhile shares the request', async () => {
    await chat(HISTORY);
    await configure(endpoint());
    await fill(endpoint());
    const asked = (text: string) => server.requests.filter((r) => ((r.body as { input?: string[] }).input ?? []).includes(text)).length;
    const question = 'When did I adopt my dog from the shelter?';
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: question }))).toEqual({ state: 'embedded' });
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: question }))).toEqual({ state: 'cached' });
    const res = await ask(question);
    expect(res.query.semantic.state).toBe('on');
    expect(res.results.some((r) => r.content === PUPPY)).toBe(true);
    expect(asked(question)).toBe(1);

    // Sent before the typed question's embedding came back: the recall waits for that request, not a second one.
    const next = 'Where did the pup come from?';
    const typed = t.engine.call('embeddings.prepare', { text: next });
    const sent = ask(next);
    expect(expectOk(await typed)).toEqual({ state: 'embedded' });
    expect((await sent).query.semantic.state).toBe('on');
    expect(asked(next)).toBe(1);

    // A chat message: the context's recall and memory retrieval both find the vector the composer asked for.
    const message = 'Is the rescue pup still sleeping all day?';
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: message, as: 'message' }))).toEqual({ state: 'embedded' });
    const s = await chat(['first']);
    expectOk(await t.engine.call('turn.prepare', { sessionId: s, content: message, locale: 'en', requestId: 'req-typed-message' }));
    expect(server.requests.filter((r) => ((r.body as { input?: string[] }).input ?? []).some((x) => x.startsWith(message)))).toHaveLength(1);
  });

  it('embeds nothing ahead of sending for an endpoint off this device, when off, or while the endpoint is failing', async () => {
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: 'dog' }))).toEqual({ state: 'off' });
    // The fake server is on 127.0.0.1; the same server named by another host is "elsewhere" (never contacted here).
    await configure(endpoint('nomic-embed-text', 'http://models.example.org:9/v1'));
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: 'dog' }))).toEqual({ state: 'remote' });
    await configure(endpoint());
    await server.close();
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: 'dog' }))).toEqual({ state: 'degraded' });
    expect(expectOk(await t.engine.call('embeddings.prepare', { text: 'cat' }))).toEqual({ state: 'degraded' });
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ state: 'degraded' });
    server = await startFakeOpenAi({ models: MODELS, synonyms: SYNONYMS, embeddingDims: 96 });
  });

  it('refuses a bad endpoint, naming the field, and changes nothing', async () => {
    const res = await t.engine.call('embeddings.configure', { endpoint: { baseUrl: 'file:///etc', apiKey: '', model: 'm', timeoutMs: 5000 } });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toMatch(/endpoint\.baseUrl/);
    expect(expectOk(await t.engine.call('embeddings.status', {})).state).toBe('off');
  });
});
