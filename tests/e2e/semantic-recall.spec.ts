import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, newProjectWithChapter, open, select, waitForEngine } from './helpers';

/**
 * Issue 18: the Settings "embedding model" makes recall meaning-based, end to end in Chromium — the jobs worker fills
 * the vectors in the background with progress, the recall page's "ask your memory" finds a paraphrase lexical recall
 * misses, a model change re-embeds, and an endpoint that stops answering leaves recall lexical, visibly. The fake
 * server's synonym groups (puppy = dog, got = adopt) are the only way the paraphrase can match.
 */
test.describe('issue 18 meaning-based recall', () => {
  let server: FakeOpenAi;
  const PUPPY = 'We got a little pup from the rescue in April, she sleeps all day.';

  test.beforeEach(async () => {
    server = await startFakeOpenAi({ models: ['test-model', 'nomic-embed-text', 'bge-m3'], synonyms: [['dog', 'puppy', 'pup'], ['adopt', 'adopted', 'got'], ['shelter', 'rescue']], embeddingDims: 96 });
  });
  test.afterEach(async () => {
    await server.close();
  });

  async function ask(page: import('@playwright/test').Page, question: string) {
    await page.goto('/recall');
    await page.getByTestId('recall-search').fill(question);
    await page.getByTestId('recall-ask').click();
  }

  test('fills vectors in the background, finds a paraphrase by meaning, re-embeds on a model change, and degrades to words', async ({ page }) => {
    await open(page, '/chat');
    const s = await call<{ id: string }>(page, 'session.create', { title: 'the new dog' });
    for (const [role, content] of [['user', PUPPY], ['assistant', 'How lovely!'], ['user', 'The kitchen tap is leaking again.'], ['assistant', 'A new washer fixes that.']] as const) {
      await call(page, 'message.append', { sessionId: s.id, role, content });
    }
    // Without an embedding model: recall by words, which misses the paraphrase, and says so.
    await ask(page, 'When did I adopt my dog from the shelter?');
    await expect(page.getByTestId('recall-ask-semantic')).toHaveAttribute('data-state', 'off');
    await expect(page.getByTestId('recall-ask-panel')).not.toContainText('little pup');

    // The Settings option: the fill runs in the jobs worker and its progress shows under the field.
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.getByTestId('model-embedding').fill('nomic-embed-text');
    await page.getByTestId('model-save').click();
    await expect(page.getByTestId('embedding-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(page.getByTestId('embedding-status')).toContainText('nomic-embed-text');

    await ask(page, 'When did I adopt my dog from the shelter?');
    await expect(page.getByTestId('recall-ask-semantic')).toHaveAttribute('data-state', 'on');
    await expect(page.getByTestId('recall-hit').first()).toContainText('little pup');
    await expect(page.getByTestId('recall-ask-conversations')).toContainText('the new dog');
    // Only the configured endpoint was called, and only for embeddings of the configured model.
    // (a browser's CORS preflight asks first: OPTIONS, no body)
    const embeds = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/embeddings');
    expect(server.requests.every((r) => r.path === '/v1/embeddings' || r.path === '/v1/models')).toBe(true);
    expect(embeds.length).toBeGreaterThan(0);
    expect(embeds.every((r) => (r.body as { model?: string }).model === 'nomic-embed-text')).toBe(true);

    // A model change re-embeds everything with the new model.
    await page.goto('/settings#model');
    await page.getByTestId('model-embedding').fill('bge-m3');
    await page.getByTestId('model-save').click();
    await expect(page.getByTestId('embedding-status')).toContainText('bge-m3');
    await expect(page.getByTestId('embedding-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const status = await call<{ model: string; embedded: number; total: number }>(page, 'embeddings.status');
    expect(status).toMatchObject({ model: 'bge-m3', embedded: 4, total: 4 });
    expect(server.requests.some((r) => r.path === '/v1/embeddings' && (r.body as { model?: string }).model === 'bge-m3')).toBe(true);

    // The server stops answering: recall still answers, by words, and says why.
    await server.close();
    await ask(page, 'Is the kitchen tap leaking?');
    await expect(page.getByTestId('recall-ask-semantic')).toHaveAttribute('data-state', 'degraded');
    await expect(page.getByTestId('recall-hit').first()).toContainText('kitchen tap');
    server = await startFakeOpenAi({ models: ['test-model'] });
  });

  test('the question is embedded while it is typed: asking sends nothing more to the endpoint, and the composer does the same', async ({ page }) => {
    await open(page, '/chat');
    const s = await call<{ id: string }>(page, 'session.create', { title: 'the new dog' });
    await call(page, 'message.append', { sessionId: s.id, role: 'user', content: PUPPY });
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.getByTestId('model-embedding').fill('nomic-embed-text');
    await page.getByTestId('model-save').click();
    await expect(page.getByTestId('embedding-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const embeddedTexts = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/embeddings').flatMap((r) => (r.body as { input?: string[] }).input ?? []);

    // Typing starts once the page's engine knows the embedding model (a page typed into earlier asks once it does).
    const knowsModel = async () => {
      await waitForEngine(page);
      await expect
        .poll(() => page.evaluate(() => (globalThis as { engram?: { connection: { embeddings: { model: string | null } | null } } }).engram?.connection.embeddings?.model ?? null))
        .toBe('nomic-embed-text');
    };
    const question = 'When did I adopt my dog from the shelter?';
    await page.goto('/recall');
    await knowsModel();
    await page.getByTestId('recall-search').pressSequentially(question, { delay: 5 });
    // Typing paused: the question went to the endpoint before anything was asked.
    await expect.poll(() => embeddedTexts().filter((t) => t === question).length, { timeout: 10_000 }).toBe(1);
    await page.getByTestId('recall-ask').click();
    await expect(page.getByTestId('recall-ask-semantic')).toHaveAttribute('data-state', 'on');
    await expect(page.getByTestId('recall-hit').first()).toContainText('little pup');
    expect(embeddedTexts().filter((t) => t === question)).toHaveLength(1);

    // The chat composer: the message being typed is embedded as its context build will recall it (message + selection).
    await page.goto(`/chat?session=${encodeURIComponent(s.id)}`);
    await knowsModel();
    const message = 'Is the rescue pup still sleeping all day?';
    await page.getByTestId('composer').pressSequentially(message, { delay: 5 });
    await expect.poll(() => embeddedTexts().filter((t) => t.startsWith(message)).length, { timeout: 10_000 }).toBe(1);
  });

  test('the Write page embeds what a skill run recalls by while the selection rests: the run sends nothing more to the endpoint', async ({ page }) => {
    await open(page, '/chat');
    await call(page, 'memory.create', { content: 'Mara has been afraid of dogs since childhood.' });
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.getByTestId('model-embedding').fill('nomic-embed-text');
    await page.getByTestId('model-save').click();
    await expect(page.getByTestId('embedding-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const embeddedTexts = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/embeddings').flatMap((r) => (r.body as { input?: string[] }).input ?? []);

    const selected = 'Mara fed the little pup from the rescue';
    await newProjectWithChapter(page, `The rain had not stopped for days. ${selected} and watched the road.`);
    await expect
      .poll(() => page.evaluate(() => (globalThis as { engram?: { connection: { embeddings: { model: string | null } | null } } }).engram?.connection.embeddings?.model ?? null))
      .toBe('nomic-embed-text');
    // A skill's context build recalls memories by its message and the selected text (context.build's query).
    const forSelection = () => embeddedTexts().filter((t) => t.endsWith(`\n${selected}`));
    await select(page, selected);
    // The selection rests: what continue and consistency-check would recall by (their default messages) is embedded, once each.
    await expect.poll(() => forSelection().length, { timeout: 10_000 }).toBe(2);
    expect(new Set(forSelection()).size).toBe(2);
    const before = embeddedTexts().length;

    await page.getByTestId('skill-consistency-check').click();
    await expect(page.getByTestId('skill-output')).toBeVisible({ timeout: 15_000 });
    // The run found the memory by its question's vector, already cached: no second request for that text, nor any other.
    expect(forSelection()).toHaveLength(2);
    expect(embeddedTexts()).toHaveLength(before);
    const chat = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as { messages: { content: string }[] };
    expect(JSON.stringify(chat.messages)).toContain('afraid of dogs');
  });
});
