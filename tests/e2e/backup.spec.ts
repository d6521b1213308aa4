import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { call, open, waitForEngine } from './helpers';

/** Without the File System Access API the app saves through a download, which Playwright can catch. */
async function openSettingsWithDownloads(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await open(page, '/settings#backup');
}

async function fill(page: Page): Promise<void> {
  const s = await call<{ id: string }>(page, 'session.create', { title: '备份测试' });
  await call(page, 'message.append', { sessionId: s.id, role: 'user', content: '我叫小明，我在杭州工作' });
  await call(page, 'message.append', { sessionId: s.id, role: 'assistant', content: 'Nice to meet you, 小明. `processPayment` is fixed.' });
  await call(page, 'memory.create', { content: 'I prefer concise answers', category: 'preference' });
  await call(page, 'profile.update', { content: '## Reply style\n- concise\n' });
  await call(page, 'settings.update', { patch: { 'memory.rag_top_n': 7 } });
  const p = await call<{ id: string }>(page, 'project.create', { name: 'Novel' });
  await call(page, 'projectFile.write', { projectId: p.id, path: '.engram/characters/alice.md', content: 'Alice: calm engineer.' });
}

/** Everything the export holds except the moment it was made. */
function comparable(text: string): unknown {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  delete parsed.exportedAt;
  return parsed;
}

async function exportAll(page: Page): Promise<string> {
  await page.getByTestId('backup-export-scope-all').check();
  const download = page.waitForEvent('download');
  await page.getByTestId('backup-export-start').click();
  const file = await (await download).path();
  await expect(page.getByTestId('backup-export-result')).toBeVisible();
  return readFileSync(file as string, 'utf8');
}

test.describe('issue 6 backups', () => {
  test('export through a download, re-import with replace in a fresh browser, export again: identical', async ({ page, browser }) => {
    await openSettingsWithDownloads(page);
    await fill(page);
    const first = await exportAll(page);
    expect(first).not.toContain('apiKey');

    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await openSettingsWithDownloads(other);
    await other.getByTestId('backup-import-file').setInputFiles({ name: 'engram-backup.json', mimeType: 'application/json', buffer: Buffer.from(first) });
    await expect(other.getByTestId('backup-import-preview')).toBeVisible();
    await expect(other.locator('[data-testid="backup-import-counts"] tr[data-table="memories"] td[data-count="add"]')).toHaveText('1');
    await other.getByTestId('backup-import-mode-replace').check();
    await other.getByTestId('backup-import-apply').click();
    await expect(other.getByTestId('backup-import-result')).toBeVisible();
    const files = await call<{ path: string }[]>(other, 'projectFile.list', {
      projectId: (await call<{ id: string }[]>(other, 'project.list'))[0]?.id,
    });
    expect(files.map((f) => f.path)).toContain('.engram/characters/alice.md');
    const second = await exportAll(other);
    expect(comparable(second)).toEqual(comparable(first));

    // Importing the same file again adds nothing.
    await other.getByTestId('backup-import-file').setInputFiles({ name: 'engram-backup.json', mimeType: 'application/json', buffer: Buffer.from(first) });
    await expect(other.getByTestId('backup-import-preview')).toBeVisible();
    await other.getByTestId('backup-import-mode-merge').check();
    await expect(other.getByTestId('backup-import-preview')).toHaveAttribute('data-mode', 'merge');
    await expect(other.locator('[data-testid="backup-import-counts"] td[data-count="add"]').filter({ hasNotText: /^0$/ })).toHaveCount(0);
    await fresh.close();
  });

  test('a hostile file ends in a clear error and changes nothing', async ({ page }) => {
    await openSettingsWithDownloads(page);
    await fill(page);
    const before = await call<{ total: number }>(page, 'memory.list', {});
    await page
      .getByTestId('backup-import-file')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"engram-export","version":1,"tables":{"memories":[{"__proto__":{"x":1}}]}}') });
    await expect(page.getByTestId('backup-import-error')).toBeVisible();
    await page.getByTestId('backup-import-file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format": "engram-export", ') });
    await expect(page.getByTestId('backup-import-error')).toBeVisible();
    expect((await call<{ total: number }>(page, 'memory.list', {})).total).toBe(before.total);
  });

  test('the database file exports, checks and swaps back in', async ({ page }) => {
    await openSettingsWithDownloads(page);
    await fill(page);
    const download = page.waitForEvent('download');
    await page.getByTestId('backup-db-export').click();
    const path = (await (await download).path()) as string;
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    await call(page, 'memory.create', { content: 'made after the export', category: 'fact' });
    await page.getByTestId('backup-db-import-file').setInputFiles({ name: 'engram.sqlite3', mimeType: 'application/octet-stream', buffer: bytes });
    await expect(page.locator('[data-testid="backup-db-check"][data-ok="true"]')).toBeVisible();
    await page.getByTestId('backup-db-confirm').check();
    // The swap reloads the page: wait for the new document and its engine, never for the old one (a test
    // that ends mid-reload leaves Chromium closing a worker that is still opening OPFS, and the close hangs).
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('backup-db-replace').click();
    await reloaded;
    await waitForEngine(page);
    const contents = (await call<{ items: { content: string }[] }>(page, 'memory.list', {})).items.map((m) => m.content);
    expect(contents).toContain('I prefer concise answers');
    expect(contents).not.toContain('made after the export');
  });

  test('cleanup of old conversations reports 002’s counts', async ({ page }) => {
    await openSettingsWithDownloads(page);
    await fill(page);
    await page.getByTestId('backup-cleanup-mode-all').check();
    await page.getByTestId('backup-cleanup-run').click();
    // The typed word goes into the app's one confirmation dialog (issue 15).
    await page.getByTestId('confirm-input').fill('DELETE');
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('backup-cleanup-report')).toBeVisible();
    await expect(page.getByTestId('backup-cleanup-conversations')).toContainText('1');
    await expect(page.getByTestId('backup-cleanup-turns')).toContainText('2');
    expect((await call<{ total: number }>(page, 'session.list', {})).total).toBe(0);
  });
});
