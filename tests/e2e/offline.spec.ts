import { expect, test } from '@playwright/test';
import { call, open } from './helpers';

test('the app and its data load with the network off', async ({ page, context }) => {
  await open(page);
  await call(page, 'settings.update', { patch: { 'memory.session_summary_limit': 2 } });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first load installs the worker; a reload puts the page under its control.
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await open(page);
  await context.setOffline(true);
  await page.reload();
  await open(page, '/settings');
  const settings = await call<Record<string, unknown>>(page, 'settings.get');
  expect(settings['memory.session_summary_limit']).toBe(2);
  await expect(page.getByRole('navigation')).toBeVisible();
});
