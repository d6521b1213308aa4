import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { configureModel, sendChat, waitForEngine } from './helpers';

test.describe('issue 19: person names never reach the model (003 Security & Privacy)', () => {
  let server: FakeOpenAi;
  test.beforeEach(async () => {
    server = await startFakeOpenAi({ models: ['test-model'] });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('with name replacement on, the scripted server sees only placeholders and the reply shows the names', async ({ page }) => {
    // The chat streams; the jobs worker's JSON calls (memory extraction, analysis) answer with placeholders too.
    server.setReplies((req) =>
      (req.body as { stream?: boolean }).stream
        ? { chunks: ['PERS', 'ON_1 and PERSON_', '2 will love Porto.'] }
        : { json: { memory_updates: [{ should_store: true, category: 'fact', key: 'fact.sister', value: 'PERSON_1', content: 'My sister is PERSON_1', confidence: 0.9, source: 'user_stated' }] } },
    );
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    await page.goto('/settings/privacy');
    await waitForEngine(page);
    await page.getByTestId('privacy-pseudonymize').check();
    await page.getByTestId('privacy-names').fill('Lena\nOmar');
    await page.getByTestId('privacy-save').click();
    await expect(page.getByTestId('privacy-save')).toBeDisabled();
    // Saving the model section again keeps the names (it does not show them).
    await page.goto('/settings/model');
    await waitForEngine(page);
    await page.getByTestId('model-name').fill('test-model ');
    await page.getByTestId('model-save').click();

    await page.goto('/chat');
    await waitForEngine(page);
    await sendChat(page, 'My sister Lena and her friend Omar moved to Porto.');
    const reply = page.getByTestId('message').filter({ hasText: 'Lena and Omar will love Porto.' });
    await expect(reply).toBeVisible();
    await expect(reply).toHaveAttribute('data-status', 'complete');
    // Wait for the background model calls after the reply, then read everything the server was sent.
    await expect.poll(() => server.requests.filter((r) => r.method === 'POST').length, { timeout: 20_000 }).toBeGreaterThan(1);
    await page.waitForTimeout(1000);
    const sent = JSON.stringify(server.requests.map((r) => r.body));
    expect(sent).toContain('My sister PERSON_1 and her friend PERSON_2 moved to Porto.');
    expect(sent).not.toMatch(/Lena|Omar/);
  });
});
