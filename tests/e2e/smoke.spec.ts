import { expect, test } from '@playwright/test';
import { call, open } from './helpers';

test('opens on OPFS and keeps a setting across a reload', async ({ page }) => {
  await open(page);
  const status = await call<{ storage: string }>(page, 'system.status');
  expect(status.storage).toBe('opfs');
  await call(page, 'settings.update', { patch: { 'memory.rag_top_n': 8 } });
  await page.reload();
  await open(page);
  const settings = await call<Record<string, unknown>>(page, 'settings.get');
  expect(settings['memory.rag_top_n']).toBe(8);
});
