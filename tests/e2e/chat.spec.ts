import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, open, sendChat, waitForEngine } from './helpers';

test.describe('issue 3 chat that remembers', () => {
  let server: FakeOpenAi;

  test.beforeEach(async () => {
    server = await startFakeOpenAi({ models: ['test-model'] });
  });

  test.afterEach(async () => {
    await server.close();
  });

  test('with no model at all: the chat records, remembers and says plainly that replies need a model', async ({ page }) => {
    await open(page, '/chat');
    await sendChat(page, '我喜欢喝咖啡，不喜欢喝茶');
    await expect(page.getByTestId('message').filter({ hasText: '我喜欢喝咖啡' })).toBeVisible();
    await expect(page.getByTestId('no-model-notice')).toBeVisible();
    // Remembered off the UI thread, with an undo.
    await expect(page.getByText(/Remembered:/).first()).toBeVisible({ timeout: 15_000 });
    const memories = await call<{ items: { content: string; category: string }[] }>(page, 'memory.list', {});
    expect(memories.items.some((m) => m.category === 'preference' && m.content.includes('咖啡'))).toBe(true);
    // The conversation is named after its first message and survives a reload.
    await expect(page.getByTestId('session-item').first()).toContainText('我喜欢喝咖啡');
    await page.reload();
    await waitForEngine(page);
    await expect(page.getByTestId('message').filter({ hasText: '我喜欢喝咖啡' })).toBeVisible();
  });

  test('keyboard: Shift+Enter starts a new line, Enter sends; Copy puts the message on the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(page, '/chat');
    const box = page.getByTestId('composer');
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await expect(page.getByTestId('message')).toHaveCount(0);
    await box.press('Enter');
    const sent = page.getByTestId('message').filter({ hasText: 'first line' });
    await expect(sent).toBeVisible();
    await expect(box).toHaveValue('');
    const stored = await call<{ items: { id: string }[] }>(page, 'session.list', {});
    const messages = await call<{ content: string }[]>(page, 'message.list', { sessionId: stored.items[0]?.id });
    expect(messages[0]?.content).toBe('first line\nsecond line');
    await sent.getByRole('button', { name: 'Copy' }).click();
    await expect(sent.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('first line\nsecond line');
    // A browser that refuses the clipboard gets told so.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await expect(sent.getByRole('button', { name: 'Copy', exact: true })).toBeVisible();
    await sent.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByTestId('notice').getByText('Could not copy')).toBeVisible();
  });

  test('streams a reply from an OpenAI-compatible server, stores it, and shows memory used', async ({ page }) => {
    // Streamed replies get the text; the jobs worker's JSON calls fail, so the zh/en rules extract.
    server.setReplies((req) => ((req.body as { stream?: boolean }).stream ? { chunks: ['Hello', ' there', ', ', 'friend', '!'], chunkDelayMs: 120 } : { status: 500 }));
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'I prefer tea over coffee. Say hello');
    await expect(page.getByTestId('streaming-reply')).toBeVisible();
    const reply = page.getByTestId('message').filter({ hasText: 'Hello there, friend!' });
    await expect(reply).toBeVisible();
    await expect(reply).toHaveAttribute('data-status', 'complete');
    const chat = server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
    const body = chat?.body as { messages: { role: string; content: string }[]; stream: boolean; model: string };
    expect(body.model).toBe('test-model');
    expect(body.stream).toBe(true);
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages.at(-1)?.content).toContain('Say hello');
    await reply.getByTestId('memory-used-toggle').click();
    await expect(reply.getByText('No memory was used for this reply.')).toBeVisible();
    // The preference stated in that turn is used by a later reply, and listed with its category.
    await expect(page.getByTestId('notice').getByText(/Remembered: I prefer tea over coffee/)).toBeVisible({ timeout: 15_000 });
    await sendChat(page, 'What should I drink this afternoon, tea or coffee?');
    const later = page.getByTestId('message').filter({ hasText: 'Hello there, friend!' }).nth(1);
    await expect(later).toHaveAttribute('data-status', 'complete');
    await later.getByTestId('memory-used-toggle').click();
    const used = later.getByTestId('memory-used-item').filter({ hasText: 'I prefer tea over coffee' });
    await expect(used).toBeVisible();
    await expect(used).toHaveAttribute('data-category', 'preference');
    await expect(used.locator('.tag')).toHaveText('Preference');
    // Stored: it is there after a reload.
    await page.reload();
    await waitForEngine(page);
    await expect(page.getByTestId('message').filter({ hasText: 'Hello there, friend!' }).first()).toBeVisible();
  });

  test('Esc stops a streaming reply; what was written is kept as stopped', async ({ page }) => {
    server.setReplies([{ chunks: Array.from({ length: 60 }, (_, i) => `word${i} `), chunkDelayMs: 150 }]);
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'Write a long story');
    await expect(page.getByTestId('streaming-reply')).toContainText('word2');
    await page.keyboard.press('Escape');
    const stopped = page.locator('[data-testid="message"][data-status="stopped"]');
    await expect(stopped).toBeVisible();
    await expect(stopped).toContainText('word0');
    await expect(stopped).not.toContainText('word59');
    await expect.poll(() => server.active()).toBe(0);
  });

  test('a server error is shown with a retry, and the retry gets the reply', async ({ page }) => {
    server.setReplies([{ status: 500, errorBody: { error: { message: 'boom' } } }, { text: 'Recovered answer' }]);
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'Are you there?');
    await expect(page.getByTestId('chat-error')).toBeVisible();
    await page.getByTestId('retry-error').click();
    await expect(page.getByTestId('message').filter({ hasText: 'Recovered answer' })).toBeVisible();
    await expect(page.getByTestId('chat-error')).toHaveCount(0);
  });

  test('an unknown model gives an error a person can act on', async ({ page }) => {
    await configureModel(page, { baseUrl: server.url, model: 'no-such-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'hello?');
    await expect(page.getByTestId('chat-error')).toContainText(/no-such-model/);
  });

  test('markdown in a reply is rendered safely: formatting yes, script no', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    server.setReplies([{ text: '**bold** <img src=x onerror="alert(1)"> [x](javascript:alert(2))' }]);
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'format please');
    const reply = page.locator('[data-testid="message"][data-role="assistant"]');
    await expect(reply.locator('.markdown strong')).toHaveText('bold');
    await expect(reply.locator('img')).toHaveCount(0);
    await expect(reply.locator('a[href^="javascript"]')).toHaveCount(0);
    await page.waitForTimeout(300);
    expect(dialogs).toBe(0);
  });

  test('nothing leaves the device except calls to the configured model endpoint', async ({ page, context }) => {
    const seen: string[] = [];
    // The context sees the service worker's requests too, not only the page's.
    context.on('request', (r) => seen.push(r.url()));
    server.setReplies([{ text: 'ok' }]);
    await configureModel(page, { baseUrl: server.url, model: 'test-model', apiKey: 'sk-secret-123' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'my name is Sam');
    await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toBeVisible();
    const app = new URL(page.url()).origin;
    const model = new URL(server.url).origin;
    const foreign = seen.filter((u) => !u.startsWith(app) && !u.startsWith(model) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign).toEqual([]);
    // The key goes to the model server in the Authorization header, and only there.
    expect(server.requests.some((r) => r.headers.authorization === 'Bearer sk-secret-123')).toBe(true);
  });

  test('recall page: full-text search finds a message and jumps to it in its conversation', async ({ page }) => {
    await open(page, '/chat');
    const s = await call<{ id: string }>(page, 'session.create', { title: 'payments' });
    await call(page, 'message.append', { sessionId: s.id, role: 'user', content: 'processPayment 函数有个重复扣款的 bug' });
    await call(page, 'message.append', { sessionId: s.id, role: 'assistant', content: 'Add an idempotency key to processPayment.' });
    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByTestId('recall-search').fill('重复扣款');
    const hit = page.getByTestId('recall-result').first();
    await expect(hit).toContainText('重复扣款');
    await expect(hit.locator('mark').first()).toBeVisible();
    await hit.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/chat\?session=/);
    await expect(page.locator('article.highlighted')).toContainText('重复扣款');
  });

  test('a model error in the Chinese chat is Chinese, and names the model', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    await configureModel(page, { baseUrl: server.url, model: 'no-such-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, '你好？');
    const error = page.getByTestId('chat-error');
    await expect(error).toContainText('模型“no-such-model”没有安装在');
    await expect(error).not.toContainText(/Pull it|is not installed|could not be reached/);
    await context.close();
  });

  test('a long conversation: newest messages first, earlier ones on request, and recall jumps to a message older than any page', async ({ page }) => {
    await open(page, '/chat');
    const s = await call<{ id: string }>(page, 'session.create', { title: 'a long one' });
    // 300 messages; the one to find is the fifth, far beyond the newest page.
    await page.evaluate(async (sessionId) => {
      const engram = (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<{ ok: boolean }> } }).engram;
      for (let i = 1; i <= 150; i++) {
        await engram.call('message.append', { sessionId, role: 'user', content: i === 3 ? 'the zebraquartz ledger question' : `question ${i}` });
        await engram.call('message.append', { sessionId, role: 'assistant', content: `answer ${i}` });
      }
    }, s.id);
    await page.goto(`/chat?session=${s.id}`);
    await waitForEngine(page);
    await expect(page.getByTestId('message').last()).toContainText('answer 150');
    const shown = await page.getByTestId('message').count();
    expect(shown).toBeLessThan(300);
    await page.getByTestId('load-earlier').click();
    await expect.poll(() => page.getByTestId('message').count()).toBeGreaterThan(shown);
    await expect(page.getByTestId('message').last()).toContainText('answer 150');

    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByTestId('recall-search').fill('zebraquartz');
    const hit = page.getByTestId('recall-result').first();
    await expect(hit).toContainText('zebraquartz');
    await hit.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/chat\?session=.*message=/);
    await expect(page.locator('article.highlighted')).toContainText('zebraquartz');
    await expect(page.locator('article.highlighted')).toBeInViewport();
    await page.getByTestId('show-latest').click();
    await expect(page.getByTestId('message').last()).toContainText('answer 150');
    await expect(page.getByTestId('show-latest')).toHaveCount(0);
  });

  test('more conversations than one page: the list, the recall filter and the backup pickers reach all of them', async ({ page }) => {
    await open(page, '/chat');
    await page.evaluate(async () => {
      const engram = (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<{ ok: boolean }> } }).engram;
      for (let i = 1; i <= 60; i++) await engram.call('session.create', { title: `conversation ${i}` });
    });
    await page.reload();
    await waitForEngine(page);
    await expect(page.getByTestId('session-item')).toHaveCount(50);
    await page.getByTestId('sessions-more').click();
    await expect(page.getByTestId('session-item')).toHaveCount(60);
    await expect(page.getByTestId('session-item').last()).toContainText('conversation 1');
    await expect(page.getByTestId('sessions-more')).toHaveCount(0);

    await page.goto('/recall');
    await waitForEngine(page);
    const filter = page.getByTestId('recall-filter-session');
    await expect(filter.locator('option')).toHaveCount(51);
    await page.getByTestId('recall-filter-session-more').click();
    await expect(filter.locator('option')).toHaveCount(61);
    await filter.selectOption({ label: 'conversation 1' });

    await page.goto('/settings#backup');
    await waitForEngine(page);
    await page.getByTestId('backup-cleanup-mode-session').check();
    await page.getByTestId('backup-cleanup-session-more').click();
    await expect(page.getByTestId('backup-cleanup-session').locator('option')).toHaveCount(60);
  });

  test('the recall page\'s starred filter finds only starred messages', async ({ page }) => {
    await open(page, '/chat');
    const s = await call<{ id: string }>(page, 'session.create', { title: 'stars' });
    const kept = await call<{ message: { id: number } }>(page, 'message.append', { sessionId: s.id, role: 'user', content: 'starfruit kept for later' });
    await call(page, 'message.append', { sessionId: s.id, role: 'user', content: 'starfruit not starred' });
    await call(page, 'message.update', { id: kept.message.id, isCollected: true });
    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByTestId('recall-search').fill('starfruit');
    await expect(page.getByTestId('recall-result')).toHaveCount(2);
    await page.getByTestId('recall-filter-starred').check();
    await expect(page.getByTestId('recall-result')).toHaveCount(1);
    await expect(page.getByTestId('recall-result')).toHaveAttribute('data-message-id', String(kept.message.id));
    await expect(page.getByTestId('recall-result')).toContainText('kept for later');
  });

  test('a draft survives a reload', async ({ page }) => {
    await open(page, '/chat');
    await page.getByTestId('composer').fill('half a thought, 还没写完');
    // Saved on every keystroke (Dexie); give the write a moment to land before the page goes.
    await expect.poll(() => page.evaluate(() => new Promise((r) => {
      const req = indexedDB.open('engram-local');
      req.onsuccess = () => {
        const tx = req.result.transaction('drafts', 'readonly');
        const get = tx.objectStore('drafts').get('chat:new');
        get.onsuccess = () => r((get.result as { text?: string } | undefined)?.text ?? '');
      };
    }))).toBe('half a thought, 还没写完');
    await page.reload();
    await waitForEngine(page);
    await expect(page.getByTestId('composer')).toHaveValue('half a thought, 还没写完');
  });

  test('sessions: new, rename, star and delete from the list', async ({ page }) => {
    await open(page, '/chat');
    await sendChat(page, 'first conversation');
    await expect(page.getByTestId('session-item')).toHaveCount(1);
    const item = page.getByTestId('session-item').first();
    await item.getByRole('button', { name: 'Rename' }).click();
    await item.getByRole('textbox').fill('Renamed talk');
    await item.getByRole('textbox').press('Enter');
    await expect(item).toContainText('Renamed talk');
    await item.getByRole('button', { name: 'Star' }).click();
    await expect(item.getByRole('button', { name: 'Unstar' })).toBeVisible();
    await page.getByTestId('new-session').click();
    await expect(page.getByTestId('message')).toHaveCount(0);
    await item.getByRole('button', { name: 'Delete' }).click();
    // The app's own confirmation dialog (issue 15), not the browser's.
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('session-item')).toHaveCount(0);
  });
});
