import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { call, open, waitForEngine } from './helpers';

/** Issue 14: history from other apps, brought in through Settings › Backup, found on the Recall page. */
const FIXTURES = join(process.cwd(), 'tests/fixtures/imports');
const chatgpt = () => ({ name: 'conversations.json', mimeType: 'application/json', buffer: readFileSync(join(FIXTURES, 'chatgpt/conversations.json')) });

async function openBackup(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await open(page, '/settings#backup');
}

test.describe('issue 14 imports from other apps', () => {
  test('a ChatGPT export imported on the backup page is found on the Recall page; again, nothing new', async ({ page }) => {
    await openBackup(page);
    const section = page.getByTestId('import-other');
    await section.getByTestId('import-other-files').setInputFiles(chatgpt());
    const preview = section.getByTestId('import-other-preview');
    await expect(preview).toHaveAttribute('data-source', 'chatgpt');
    await expect(preview).toHaveAttribute('data-add', '6');
    await expect(preview).toContainText('Sourdough starter rescue');
    await section.getByTestId('import-other-apply').click();
    await expect(section.getByTestId('import-other-result')).toHaveAttribute('data-messages', '6');

    await page.goto('/recall');
    await waitForEngine(page);
    await page.getByTestId('recall-search').fill('marmalade');
    const hit = page.getByTestId('recall-result').first();
    await expect(hit).toContainText('marmalade jar');
    await hit.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/chat\?session=chatgpt-6789a1b2/);
    await expect(page.locator('article.highlighted')).toContainText('nail polish');

    // The same file again: the preview says there is nothing new and the button has nothing to do.
    await page.goto('/settings#backup');
    await waitForEngine(page);
    await page.getByTestId('import-other-files').setInputFiles(chatgpt());
    await expect(page.getByTestId('import-other-nothing')).toBeVisible();
    await expect(page.getByTestId('import-other-apply')).toBeDisabled();
    expect((await call<{ total: number }>(page, 'session.list', {})).total).toBe(2);
  });

  test('a lorebook becomes a project’s world files; a wrong kind of file is a clear error', async ({ page }) => {
    await openBackup(page);
    await page.getByTestId('import-other-source').selectOption('lorebook');
    await page.getByTestId('import-other-files').setInputFiles({
      name: 'harbor-world.json',
      mimeType: 'application/json',
      buffer: readFileSync(join(FIXTURES, 'sillytavern/harbor-world.json')),
    });
    await expect(page.getByTestId('import-other-lore')).toContainText('Harbor of Lanterns');
    await page.getByTestId('import-other-apply').click();
    await expect(page.getByTestId('import-other-result')).toBeVisible();
    const [project] = await call<{ id: string; name: string }[]>(page, 'project.list', {});
    expect(project?.name).toBe('Harbor of Lanterns');
    const files = await call<{ path: string }[]>(page, 'projectFile.list', { projectId: project?.id });
    expect(files.map((f) => f.path)).toEqual(['.engram/world/brass-tide-clock.md', '.engram/world/the-lantern-fleet.md']);

    await page.getByTestId('import-other-source').selectOption('claude');
    await page.getByTestId('import-other-files').setInputFiles(chatgpt());
    await expect(page.getByTestId('import-other-error')).toBeVisible();
    expect((await call<{ total: number }>(page, 'session.list', {})).total).toBe(0);
  });

  test('a conversation exported as Markdown, beside the JSON backup', async ({ page }) => {
    await openBackup(page);
    await page.getByTestId('import-other-files').setInputFiles(chatgpt());
    await page.getByTestId('import-other-apply').click();
    await expect(page.getByTestId('import-other-result')).toBeVisible();
    const md = page.getByTestId('backup-markdown');
    await md.getByTestId('backup-markdown-scope-session').check();
    await md.getByTestId('backup-markdown-session').selectOption('chatgpt-6789a1b2-0000-4000-8000-0000000beac0');
    const download = page.waitForEvent('download');
    await md.getByTestId('backup-markdown-start').click();
    const file = await (await download).path();
    const text = readFileSync(file as string, 'utf8');
    expect(text).toMatch(/^# Naming a lighthouse keeper\n/);
    expect(text).toContain('**Assistant** · 2025-01-27 17:47:00 UTC\n\nIvo, Brann, Tesk.');
  });
});
