import { expect, test } from '@playwright/test';
import { startFakeOpenAi, type FakeOpenAi } from '../fixtures/fake-openai-server';
import { configureModel, newProjectWithChapter, open, select, waitForEngine } from './helpers';

test.describe('issue 5 context engine: write, skills and the inspector', () => {
  let server: FakeOpenAi;
  test.beforeEach(async () => {
    server = await startFakeOpenAi({ replies: [{ text: '他走进院子。猫看着他。' }] });
  });
  test.afterEach(async () => {
    await server.close();
  });

  test('polish a selection: diff, accept, feedback; the inspector shows every layer, without character files', async ({ page }) => {
    await configureModel(page, { baseUrl: server.url, model: 'test-model' });
    // More text before the selection than polish's `surrounding: 500` keeps: the inspector shows the cut.
    const earlier = `${'山路很长，雾气很重，他一个人走了很久才看见村口的灯。'.repeat(25)}\n\n`;
    await newProjectWithChapter(page, `${earlier}春天来了。花开了。\n\n他慢慢地走进了那个安静的院子，然后看见了一只猫。猫也看着他。`);
    // A character file exists, but polish does not ask for characters (004 精准注入).
    await page.getByTestId('settings-file-create').click();
    await page.getByTestId('settings-file-name').fill('alice');
    await page.getByTestId('settings-file-create-submit').click();
    await page.getByTestId('settings-file-editor').fill('Alice 是一名冷静的工程师，左撇子。');
    await page.getByTestId('settings-file-save').click();
    await expect(page.getByTestId('settings-file-item')).toHaveCount(1);

    await select(page, '他慢慢地走进了那个安静的院子，然后看见了一只猫。猫也看着他。');
    await page.getByTestId('skill-polish').click();
    await expect(page.getByTestId('skill-output')).toHaveValue('他走进院子。猫看着他。');
    await page.getByTestId('skill-accept').click();
    await expect(page.getByTestId('editor')).toHaveValue(`${earlier}春天来了。花开了。\n\n他走进院子。猫看着他。`);
    await expect(page.getByTestId('feedback-signal')).toBeVisible();

    const sent = server.requests.filter((r) => r.method === 'POST').at(-1)?.body as { messages: { content: string }[] };
    expect(JSON.stringify(sent.messages)).not.toContain('左撇子');

    await page.getByTestId('skill-why').last().click();
    await expect(page.getByTestId('run-header')).toBeVisible();
    await expect(page.getByTestId('layer-card')).toHaveCount(6);
    await expect(page.getByTestId('prefix-hash')).toHaveText(/^[0-9a-f]{64}$/);
    await expect(page.getByTestId('prefix-verified')).toHaveAttribute('data-verified', 'true');
    await expect(page.locator('[data-testid="layer-card"][data-layer="L3"]')).not.toContainText('左撇子');
    // What was cut and why: the far paragraph before the selection, trimmed at its boundary.
    const cut = page.locator('[data-testid="layer-card"][data-layer="L5"] [data-testid="layer-cut"]');
    await expect(cut).toHaveCount(1);
    await expect(cut).toHaveAttribute('data-reason', 'trimmed');
    await expect(cut).toContainText('surround:before');
    await expect(page.locator('[data-testid="layer-card"][data-layer="L5"]')).not.toContainText('村口的灯');
    await expect(page.getByTestId('run-messages')).toBeVisible();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('copy-json').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toMatchObject({ run: { stablePrefixHash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
  });

  test('with no model a skill says so and still shows what would be sent', async ({ page }) => {
    await newProjectWithChapter(page, '第一段。\n\n第二段的一句话。');
    await select(page, '第二段的一句话。');
    await page.getByTestId('skill-polish').click();
    await expect(page.getByTestId('no-model-notice')).toBeVisible();
    await page.getByTestId('skill-why').first().click();
    await expect(page.getByTestId('layer-card')).toHaveCount(6);
  });

  test('repeated chat turns keep a byte-identical prefix (same hash) in the inspector', async ({ page }) => {
    await open(page, '/chat');
    const build = (message: string) =>
      page.evaluate(
        async (m) =>
          (
            (await (globalThis as unknown as { engram: { call(a: string, b: unknown): Promise<{ data: { runId: string; stablePrefixHash: string } }> } }).engram.call(
              'context.build',
              { kind: 'chat', message: m, locale: 'en' },
            )) as { data: { runId: string; stablePrefixHash: string } }
          ).data,
        message,
      );
    const a = await build('first question at one time');
    const b = await build('a different question later');
    expect(a.stablePrefixHash).toBe(b.stablePrefixHash);
    await page.goto(`/inspect?run=${a.runId}`);
    await waitForEngine(page);
    await page.getByTestId('compare-select').selectOption(b.runId);
    await expect(page.getByTestId('compare-result')).toHaveAttribute('data-same', 'true');
    await page.goto('/inspect');
    await expect(page.getByTestId('run-item').first()).toBeVisible();
  });
});
