import { expect, test, type Page } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, open, sendChat } from './helpers';

const BANNER_EN = 'Memory is unavailable right now; the AI works in general mode';

/** Breaks the database's memory tables: the development fault switch the DB worker starts with (ui/app/devtools.ts). */
async function breakMemory(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('engram.fault', 'memory-unreadable'));
  await page.reload();
}

test.describe('issue 19: no-memory mode (003 全部记忆不可用时的兜底)', () => {
  let server: FakeOpenAi;
  test.beforeEach(async () => {
    server = await startFakeOpenAi({ models: ['test-model'] });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('the memory tables unreadable: chat still works without a model and with one, and a banner says the AI works in general mode', async ({ page }) => {
    // Four starts of the app (break, configure, repair) and three turns: more than one start's budget.
    test.setTimeout(180_000);
    await open(page, '/chat');
    await call(page, 'memory.create', { content: 'My cat is called Mochi' });
    await sendChat(page, 'hello before the failure');
    await expect(page.getByTestId('no-model-notice')).toBeVisible();
    await expect(page.getByTestId('memory-degraded-banner')).toHaveCount(0);

    await breakMemory(page);
    await open(page, '/chat');
    // No model (the heuristic path): the message is stored and answered with the no-model notice.
    await sendChat(page, 'what is my cat called?');
    await expect(page.getByTestId('message').filter({ hasText: 'what is my cat called?' })).toBeVisible();
    await expect(page.getByTestId('no-model-notice')).toBeVisible();
    const banner = page.getByTestId('memory-degraded-banner');
    await expect(banner).toHaveText(BANNER_EN);
    await expect(banner).toHaveAttribute('role', 'status');

    // With a model: the reply streams and is stored; the model was never sent the memory.
    server.setReplies((req) => ((req.body as { stream?: boolean }).stream ? { chunks: ['I do not ', 'know yet.'] } : { json: {} }));
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await open(page, '/chat');
    await sendChat(page, 'tell me about my cat');
    const reply = page.getByTestId('message').filter({ hasText: 'I do not know yet.' });
    await expect(reply).toBeVisible();
    await expect(reply).toHaveAttribute('data-status', 'complete');
    await expect(banner).toBeVisible();
    // The banner sits above the page, never over the composer.
    const [b, c] = [await banner.boundingBox(), await page.getByTestId('composer').boundingBox()];
    expect(b && c && b.y + b.height <= c.y).toBe(true);
    const chatRequests = server.requests.filter((r) => (r.body as { stream?: boolean } | null)?.stream);
    expect(chatRequests.length).toBeGreaterThan(0);
    expect(JSON.stringify(chatRequests.map((r) => r.body))).not.toContain('Mochi');

    // Repaired: the next turn reads the memory again and the banner goes.
    await page.evaluate(() => localStorage.removeItem('engram.fault'));
    await page.reload();
    await open(page, '/chat');
    await sendChat(page, 'and now?');
    await expect(page.getByTestId('message').filter({ hasText: 'and now?' })).toBeVisible();
    // (a new conversation after the reload) its reply stored, and the memory read again: no banner.
    await expect(page.getByTestId('message').filter({ hasText: 'I do not know yet.' })).toHaveAttribute('data-status', 'complete');
    await expect(banner).toHaveCount(0);
  });

  test('the banner speaks Chinese in a Chinese UI', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('engram.locale', 'zh-CN'));
    await open(page, '/chat');
    await breakMemory(page);
    await open(page, '/chat');
    await sendChat(page, '你好');
    await expect(page.getByTestId('memory-degraded-banner')).toHaveText('记忆系统暂时不可用，AI 将以通用模式工作');
  });
});
