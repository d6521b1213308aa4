import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { call, configureModel, open, sendChat, waitForEngine } from './helpers';

type ChatBody = { messages: { role: string; content: string }[] };

function chatRequests(server: FakeOpenAi): ChatBody[] {
  return server.requests
    .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
    .map((r) => r.body as ChatBody & { stream?: boolean })
    // The jobs worker's calls (extraction, turn analysis, summaries) ask for JSON; replies are streamed.
    .filter((b) => b.stream === true);
}

/**
 * The retrieved-memory lines (L4) and profile (L1) of the system message. The prompt carries no ids (issue 15):
 * a memory is a plain `- …` line of "Relevant memories"; lines from conversations say which conversation.
 */
function memoryLines(body: ChatBody | undefined): string[] {
  const system = body?.messages[0]?.content ?? '';
  const section = (heading: string) => system.split(`${heading}\n`)[1]?.split('\n## ')[0]?.split('\n') ?? [];
  const memories = section('## Relevant memories').filter((l) => l.startsWith('- ') && !/^- (Earlier in this conversation|From the conversation|Recent conversation)/.test(l));
  return [...memories, ...section('## About the user')];
}

test.describe('issue 4 long-term memory', () => {
  let server: FakeOpenAi;
  test.beforeEach(async () => {
    // The chat answer, and the model's memory_update for messages that state a preference.
    server = await startFakeOpenAi({
      replies: (req) => {
        const body = JSON.stringify(req.body);
        if (body.includes('current_topic')) return { json: { current_topic: null, context_variables: {}, last_emotion: null } };
        if (!body.includes('memory_updates')) return { text: 'Noted.' };
        const stated = body.includes('I prefer answers in bullet points');
        return {
          json: {
            memory_updates: stated
              ? [{ should_store: true, category: 'preference', key: 'preference.reply.format', value: 'bullet points', content: 'I prefer answers in bullet points', confidence: 0.95, source: 'user_stated' }]
              : [],
          },
        };
      },
    });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('a preference stated in one session shapes the next session’s context, and is gone once deleted in the manager', async ({ page }) => {
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'I prefer answers in bullet points');
    await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toBeVisible();
    await expect(page.getByText(/Remembered:/).first()).toBeVisible({ timeout: 15_000 });
    // The profile learned it too, and the chat says so.
    // One notice at a time (issue 15): this one shows once the one before it has faded.
    await expect(page.getByTestId('notice').getByText('Profile updated: added “Format: bullet points”')).toBeVisible({ timeout: 15_000 });

    // A new session: the preference is in what the model is given.
    await page.getByTestId('new-session').click();
    await sendChat(page, 'How should you format answers for me?');
    await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toBeVisible();
    const second = chatRequests(server).at(-1);
    expect(memoryLines(second).join('\n')).toContain('bullet points');

    // Delete it in the memory manager.
    await page.goto('/memory');
    await waitForEngine(page);
    const row = page.getByTestId('memory-row').filter({ hasText: 'bullet points' });
    await row.first().click();
    await page.getByTestId('memory-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('memory-row').filter({ hasText: 'bullet points' })).toHaveCount(0);
    // The line it wrote into the profile went with it, visibly (and undoably).
    await expect(page.getByTestId('notice').getByText('Profile updated: removed “Format: bullet points”')).toBeVisible();
    expect((await call<{ content: string }>(page, 'profile.get')).content).not.toContain('bullet points');

    // A third session no longer carries it.
    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'And now?');
    await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toBeVisible();
    const third = chatRequests(server).at(-1);
    expect(third?.messages[0]?.content).toBeTruthy();
    // (The first conversation's own title may still be listed among recent sessions: that is the
    // conversation, not a memory; deleting the conversation is a separate choice.)
    expect(memoryLines(third).join('\n')).not.toContain('bullet points');
  });

  test('the manager lists with a total, edits with history, and clears everything only after typed confirmation', async ({ page }) => {
    await open(page, '/memory');
    for (const content of ['我叫小明', 'I work as a nurse', 'I like hiking']) {
      await call(page, 'memory.create', { content, category: 'fact' });
    }
    await page.reload();
    await waitForEngine(page);
    await expect(page.getByTestId('memory-total')).toHaveAttribute('data-total', '3');
    await page.getByTestId('memory-row').filter({ hasText: 'I like hiking' }).click();
    await expect(page.getByTestId('memory-detail')).toBeVisible();
    await page.getByTestId('memory-edit').click();
    await page.getByTestId('memory-edit-content').fill('I like hiking in the Alps');
    await page.getByTestId('memory-save').click();
    await expect(page.getByTestId('memory-detail')).toContainText('I like hiking in the Alps');
    await expect(page.getByTestId('memory-history')).toContainText(/hiking/);
    // Undo restores the previous text.
    await page.getByTestId('memory-undo').click();
    await expect(page.getByTestId('memory-row').filter({ hasText: 'in the Alps' })).toHaveCount(0);
    await expect(page.getByTestId('memory-row').filter({ hasText: 'I like hiking' })).toHaveCount(1);

    // Clear all: refused by the engine without confirmation, done after the typed word.
    const refused = await page.evaluate(() =>
      (globalThis as unknown as { engram: { call(m: string, i: unknown): Promise<{ ok: boolean; error?: { code: string } }> } }).engram.call('memory.clear', {}),
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'MEMORY_CLEAR_CONFIRM_REQUIRED' } });
    await page.getByTestId('memory-clear').click();
    await expect(page.getByTestId('confirm-ok')).toBeDisabled();
    await page.getByTestId('confirm-input').fill('delete');
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('memory-clear-result')).toBeVisible();
    await expect(page.getByTestId('memory-total')).toHaveAttribute('data-total', '0');
  });

  test('retrieval explains every term of its score', async ({ page }) => {
    await open(page, '/memory');
    await call(page, 'memory.create', { content: '我喜欢用 Python 写代码', category: 'preference' });
    await call(page, 'memory.create', { content: 'My sister lives in Berlin', category: 'fact' });
    await page.reload();
    await waitForEngine(page);
    await page.getByTestId('memory-retrieve-query').fill('Python 代码');
    await page.getByTestId('memory-retrieve-query').press('Enter');
    const result = page.getByTestId('memory-retrieve-result').first();
    await expect(result).toContainText('Python');
    await expect(result).toContainText(/0\.4/);
  });
});
