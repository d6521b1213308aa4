/**
 * Issue 15 "Done when": what a person meets — a memory kept without a model, notices that never cover
 * the composer, Inspect that shows words not ids, model settings that say what happened, and a hint when
 * a question's language is why memory finds nothing.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, open, sendChat, waitForEngine } from './helpers';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element is laid out').not.toBeNull();
  return box as Box;
}

/** Waits until the heuristic extractor has stored a memory mentioning `word`. */
async function waitForMemory(page: Page, word: string): Promise<void> {
  await expect
    .poll(async () => (await call<{ items: { content: string }[] }>(page, 'memory.list', { limit: 50 })).items.some((m) => m.content.includes(word)), {
      timeout: 30_000,
    })
    .toBe(true);
}

test.describe('issue 15 with no model', () => {
  test('"Remember that I moved to Porto." is on the Memory page', async ({ page }) => {
    await open(page, '/chat');
    await sendChat(page, 'Remember that I moved to Porto.');
    await waitForMemory(page, 'Porto');
    await page.goto('/memory');
    await waitForEngine(page);
    await expect(page.getByTestId('memory-row').filter({ hasText: 'Porto' })).toBeVisible();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`no notice overlaps the composer or Send at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await open(page, '/chat');
      await sendChat(page, 'Remember that my sister is called Lena.');
      // The "Remembered: …" notice (and any other on show) stays clear of the message box and Send.
      const notice = page.locator('[data-kind][class*="notice"]').first();
      await expect(notice).toBeVisible({ timeout: 30_000 });
      await page.getByTestId('composer').fill('typing while a notice is on show');
      const [n, composer, send] = await Promise.all([boxOf(notice), boxOf(page.getByTestId('composer')), boxOf(page.getByTestId('send'))]);
      expect(overlaps(n, composer)).toBe(false);
      expect(overlaps(n, send)).toBe(false);
    });
  }

  test('a Chinese question over English memories says why it finds nothing and what would help', async ({ page }) => {
    await open(page, '/chat');
    await sendChat(page, 'Remember that my sister is called Lena.');
    await waitForMemory(page, 'Lena');
    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByRole('searchbox').first().fill('我妹妹叫什么名字？');
    await page.getByTestId('recall-ask').click();
    // The Ask panel's hint (about memories); the search list below has its own (about conversations).
    const hint = page.locator('[data-testid="language-gap-hint"][data-source="memories"]');
    await expect(hint).toBeVisible();
    await expect(hint).toHaveAttribute('data-query', 'zh');
    await expect(hint.getByRole('link')).toHaveAttribute('href', '/settings/model');
    // An English question over the same memories needs no hint.
    await page.getByRole('searchbox').first().fill('What is my sister called?');
    await page.getByTestId('recall-ask').click();
    await expect(page.getByTestId('recall-ask-stats')).toBeVisible();
    await expect(hint).toHaveCount(0);
  });

  test('the plain search list says so too when a Chinese search meets English conversations', async ({ page }) => {
    await open(page, '/chat');
    await sendChat(page, 'Remember that my sister is called Lena.');
    await waitForMemory(page, 'Lena');
    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByRole('searchbox').first().fill('我妹妹叫什么名字');
    await expect(page.getByTestId('recall-no-results')).toBeVisible();
    const hint = page.locator('[data-testid="language-gap-hint"][data-source="conversations"]');
    await expect(hint).toBeVisible();
    await expect(hint).toHaveAttribute('data-query', 'zh');
    await expect(hint).toHaveAttribute('data-library', 'en');
    await expect(hint.getByRole('link')).toHaveAttribute('href', '/settings/model');
    // An English search over the same conversations needs no hint.
    await page.getByRole('searchbox').first().fill('sister');
    await expect(page.getByTestId('recall-total')).toBeVisible();
    await expect(hint).toHaveCount(0);
  });
});

test.describe('issue 15 with a model server', () => {
  let server: FakeOpenAi;
  test.beforeEach(async () => {
    server = await startFakeOpenAi({
      models: ['llama3.2', 'qwen2.5:7b'],
      replies: (req) => {
        const body = JSON.stringify(req.body);
        if (body.includes('current_topic')) return { json: { current_topic: null, context_variables: {}, last_emotion: null } };
        if (body.includes('memory_updates')) return { json: { memory_updates: [] } };
        return { text: 'You moved to Porto, and your sister is Lena.' };
      },
    });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('Inspect shows the text of each memory it lists and no bare id', async ({ page }) => {
    await configureModel(page, { baseUrl: server.url, model: 'llama3.2' });
    await open(page, '/chat');
    await call(page, 'memory.create', { content: 'I moved to Porto in March.' });
    await call(page, 'memory.create', { content: 'My sister is called Lena.' });
    await sendChat(page, 'Where did I move to, and what is my sister called?');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(reply).toContainText('Porto');

    // The reply's own card says what the model was given, by its words.
    await reply.getByTestId('given-toggle').click();
    await expect(reply.getByTestId('given-card')).toContainText('Porto');

    await reply.getByRole('link', { name: /Why this reply/ }).click();
    const l4 = page.locator('[data-testid="layer-card"][data-layer="L4"]');
    await expect(l4).toBeVisible();
    const [run] = await call<{ id: string }[]>(page, 'run.list', { limit: 1 });
    const detail = await call<{ layers: { id: string; items: { id: string }[] }[] }>(page, 'run.get', { runId: run!.id });
    const memoryIds = detail.layers.flatMap((l) => l.items.map((i) => i.id)).filter((id) => id.startsWith('memory:'));
    expect(memoryIds.length).toBeGreaterThan(0);
    const { items } = await call<{ items: { id: string; content: string }[] }>(page, 'memory.list', { limit: 50 });
    for (const id of memoryIds) {
      const memory = items.find((m) => `memory:${m.id}` === id);
      expect(memory, `${id} is a stored memory`).toBeDefined();
      await expect(l4.getByTestId('item-text').filter({ hasText: memory!.content })).toBeVisible();
      // The id is there only behind "Technical id", never as the text a person reads.
      await expect(page.locator('main')).not.toContainText(memory!.id, { useInnerText: true });
      await expect(page.getByTestId('trace-panel')).toContainText(memory!.content);
    }
    // Runs are listed by what was asked.
    await page.goto('/inspect');
    await waitForEngine(page);
    await expect(page.getByTestId('run-request').first()).toContainText('Where did I move to');
  });

  test('Test connection with an empty model field says "Connected — 2 models; pick one", and picking one turns it right', async ({ page }) => {
    await page.goto('/settings/model');
    await waitForEngine(page);
    await page.getByTestId('model-provider').selectOption('heuristic');
    await expect(page.getByTestId('model-base-url')).toBeDisabled();
    await expect(page.getByTestId('model-name')).toBeDisabled();
    await expect(page.getByTestId('model-api-key')).toBeDisabled();
    await page.getByTestId('model-provider').selectOption('openai-compatible');
    await page.getByTestId('model-base-url').fill(server.url);
    await page.getByTestId('model-name').fill('');
    await page.getByTestId('model-test').click();
    const result = page.getByTestId('model-test-result');
    await expect(result).toContainText('Connected — 2 models on this server; pick one below.');
    await expect(result).toHaveAttribute('data-tone', 'warn');
    await expect(result).not.toContainText('failed');
    await result.getByRole('button', { name: 'Use model qwen2.5:7b' }).click();
    await expect(result).toHaveAttribute('data-tone', 'ok');
    await page.getByTestId('model-save').click();
    // A saved change leaves no stale result behind.
    await expect(result).toHaveCount(0);
  });
});
