import { expect, test, type Page } from '@playwright/test';

/**
 * Issue 19 item 11: the forgetting ledger and the no-memory banner stories show what a person sees,
 * offline (any request past 127.0.0.1 or any page error fails the test).
 */
async function openStory(page: Page, id: string): Promise<{ offsite: string[]; errors: string[] }> {
  const seen = { offsite: [] as string[], errors: [] as string[] };
  await page.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      seen.offsite.push(route.request().url());
      return route.abort();
    },
  );
  page.on('pageerror', (e) => seen.errors.push(e.message));
  await page.goto(`/iframe.html?id=${id}&viewMode=story`);
  await expect(page.locator('#storybook-root > *').first()).toBeVisible();
  return seen;
}

test.describe('forgetting ledger and no-memory banner stories', () => {
  test('the ledger lists what was forgotten, when and why; Keep this pins what still exists', async ({ page }) => {
    const seen = await openStory(page, 'settings-forgetting-ledger--several-forgotten');
    const rows = page.getByTestId('ledger').locator('li');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0)).toContainText('Faded · not used for a long time · writing episode');
    await expect(rows.nth(0)).toContainText('Action scene · continue');
    await expect(rows.nth(1)).toContainText('Compressed · past its age limit');
    // A deleted rule can no longer be kept; one already kept says when.
    await expect(rows.nth(2)).toContainText('Deleted · over the storage budget · learned rule');
    await expect(rows.nth(2).getByRole('button', { name: 'Keep this' })).toHaveCount(0);
    await expect(rows.nth(3).locator('[data-kept="true"]')).toBeVisible();
    await rows.nth(0).getByRole('button', { name: 'Keep this' }).click();
    await expect(rows.nth(0).locator('[data-kept="true"]')).toBeVisible();
    await expect(rows.nth(0).getByRole('button', { name: 'Keep this' })).toHaveCount(0);
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('an empty ledger says nothing was forgotten', async ({ page }) => {
    const seen = await openStory(page, 'settings-forgetting-ledger--nothing-forgotten');
    await expect(page.getByTestId('ledger-empty')).toHaveText('Nothing has been forgotten yet.');
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('the no-memory banner says the AI works in general mode, and is gone when memory is readable', async ({ page }) => {
    const seen = await openStory(page, 'shell-no-memory-banner--memory-unavailable');
    const banner = page.getByTestId('memory-degraded-banner');
    await expect(banner).toHaveText('Memory is unavailable right now; the AI works in general mode');
    await expect(banner).toHaveAttribute('role', 'status');
    await openStory(page, 'shell-no-memory-banner--memory-readable');
    await expect(page.getByTestId('story-page')).toBeVisible();
    await expect(page.getByTestId('memory-degraded-banner')).toHaveCount(0);
    expect(seen).toEqual({ offsite: [], errors: [] });
  });
});
