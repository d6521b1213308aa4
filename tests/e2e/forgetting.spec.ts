import { expect, test } from '@playwright/test';
import { call, open } from './helpers';

/** Issue 19: the memory clean-up in Settings › Maintenance runs the lifecycle job in the jobs worker. */
test('"Clean now" runs decay, compression and purge in the jobs worker and Settings shows when they ran', async ({ page }) => {
  await open(page, '/settings/maintenance');
  await expect(page.getByTestId('ledger-empty')).toBeVisible();
  await page.getByTestId('cleanup-run').click();
  await expect(page.getByTestId('cleanup-run')).toBeEnabled({ timeout: 20_000 });
  const runs = await call<{ status: string; trigger: string; result: Record<string, unknown> }[]>(page, 'jobs.history', { job: 'lifecycle' });
  expect(runs.find((r) => r.trigger === 'demand')).toMatchObject({ status: 'ok', result: { phases: 'decay,compress,purge' } });
  for (const phase of ['decay', 'compress', 'purge']) await expect(page.locator(`[data-phase="${phase}"]`)).not.toHaveText('not yet');
  await expect(page.getByTestId('cleanup-failed')).toHaveCount(0);
});
