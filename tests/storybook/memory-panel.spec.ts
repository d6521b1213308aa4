import { expect, test, type Page } from '@playwright/test';

/**
 * Issue 19 item 11: the built Storybook's Memory panel stories (src/lib/ui/components/memory/stories)
 * show each state as a person sees it, and nothing in Storybook reaches past this machine.
 */

/** Opens one story's iframe and fails the test on any request that leaves 127.0.0.1 or any page error. */
async function openStory(page: Page, id: string, query = ''): Promise<{ offsite: string[]; errors: string[] }> {
  const offsite: string[] = [];
  const errors: string[] = [];
  await page.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      offsite.push(route.request().url());
      return route.abort();
    },
  );
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`/iframe.html?id=${id}&viewMode=story${query}`);
  // Storybook marks the story root once the story has rendered (after its loader).
  await expect(page.locator('#storybook-root [aria-labelledby="rules-title"]')).toBeVisible();
  return { offsite, errors };
}

test.describe('Memory panel stories', () => {
  test('several rules: each rule grouped under its category, with its confidence and badges', async ({ page }) => {
    const seen = await openStory(page, 'memory-memory-panel--several-rules');
    const cards = page.getByTestId('rule-card');
    await expect(cards).toHaveCount(4);
    const style = page.locator('section[data-category="style"]');
    await expect(style.getByRole('heading', { name: 'Writing style' })).toBeVisible();
    await expect(style.getByTestId('rule-card')).toContainText('No exclamation marks in dialogue');
    await expect(style.getByTestId('rule-card')).toContainText('Confidence 100%');
    await expect(style.getByTestId('rule-card')).toContainText('Confirmed');
    await expect(page.locator('section[data-category="pacing"]').getByTestId('rule-card')).toContainText('Recently updated');
    await expect(page.locator('section[data-category="structure"]').getByTestId('rule-card')).toContainText('Edited');
    await expect(page.locator('section[data-category="vocabulary"]').getByTestId('rule-card')).toContainText('Plain words over jargon');
    await expect(page.getByTestId('rules-empty')).toHaveCount(0);
    await expect(page.getByTestId('learning-paused-badge')).toHaveCount(0);
    await expect(page.getByTestId('conflict-notice')).toHaveCount(0);
    await expect(page.getByTestId('rules-footer')).toHaveText(/^42 interactions recorded · last updated Jan 12, 2026/);
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('empty: the seed 003 empty message and one way to add a rule', async ({ page }) => {
    const seen = await openStory(page, 'memory-memory-panel--empty');
    const empty = page.getByTestId('rules-empty');
    await expect(empty).toBeVisible();
    await expect(empty).toContainText('The AI is learning your writing preferences; the more you use it the better it gets.');
    await expect(page.getByTestId('rule-add')).toHaveCount(1);
    await expect(page.getByTestId('rule-card')).toHaveCount(0);
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('paused: the "Learning paused" notice, update disabled, and Resume brings learning back', async ({ page }) => {
    const seen = await openStory(page, 'memory-memory-panel--paused');
    const badge = page.getByTestId('learning-paused-badge');
    await expect(badge).toBeVisible();
    await expect(badge).toContainText('Learning paused');
    await expect(badge).toContainText('New interactions are still recorded');
    await expect(page.getByRole('button', { name: 'Update preferences' })).toBeDisabled();
    await expect(page.getByTestId('rule-card')).toHaveCount(2);
    // The rules are still there while learning is paused.
    await expect(page.getByTestId('rule-card').first()).toContainText('No exclamation marks in dialogue');
    await page.getByRole('button', { name: 'Resume learning' }).click();
    await expect(badge).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Pause learning' })).toBeVisible();
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('conflict: the conflict notice with both rules, and keeping one settles it', async ({ page }) => {
    const seen = await openStory(page, 'memory-memory-panel--conflict');
    const notice = page.getByTestId('conflict-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute('role', 'alert');
    await expect(notice.getByRole('heading')).toHaveText('Preference conflict detected — choose the style you prefer');
    const choices = notice.getByTestId('conflict-choice');
    await expect(choices).toHaveCount(2);
    await expect(choices.nth(0)).toContainText('Short, punchy sentences');
    await expect(choices.nth(0)).toContainText('confidence 0.55');
    await expect(choices.nth(1)).toContainText('Long, flowing sentences with many clauses');
    await choices.nth(0).getByRole('button', { name: 'Keep this one' }).click();
    await expect(notice).toHaveCount(0);
    const cards = page.getByTestId('rule-card');
    await expect(cards).toHaveCount(2);
    await expect(page.locator('section[data-category="style"]').getByTestId('rule-card')).toContainText('Short, punchy sentences');
    await expect(page.locator('section[data-category="style"]').getByTestId('rule-card')).toContainText('Confirmed');
    await expect(page.getByText('Long, flowing sentences with many clauses')).toHaveCount(0);
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('the stories read in Chinese too', async ({ page }) => {
    const seen = await openStory(page, 'memory-memory-panel--paused', '&locale=zh-CN');
    await expect(page.getByRole('heading', { name: '写作偏好' })).toBeVisible();
    await expect(page.getByTestId('learning-paused-badge')).toContainText('学习已暂停');
    expect(seen).toEqual({ offsite: [], errors: [] });
  });

  test('the Storybook index lists the four Memory panel states, and every story it lists renders offline', async ({ page, request }) => {
    const index = (await (await request.get('/index.json')).json()) as { entries: Record<string, { type: string }> };
    const stories = Object.entries(index.entries).filter(([, e]) => e.type === 'story').map(([id]) => id);
    expect(stories).toEqual(expect.arrayContaining(['memory-memory-panel--several-rules', 'memory-memory-panel--empty', 'memory-memory-panel--paused', 'memory-memory-panel--conflict']));
    const offsite: string[] = [];
    const errors: string[] = [];
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => {
        offsite.push(route.request().url());
        return route.abort();
      },
    );
    page.on('pageerror', (e) => errors.push(e.message));
    for (const id of stories) {
      await page.goto(`/iframe.html?id=${id}&viewMode=story`);
      // Storybook shows its error overlay (and leaves the root empty) when a story throws.
      await expect(page.locator('#storybook-root > *').first(), id).toBeVisible();
      await expect(page.locator('.sb-show-errordisplay'), id).toHaveCount(0);
    }
    expect({ offsite, errors }).toEqual({ offsite: [], errors: [] });
  });
});
