/**
 * Issue 15 "Done when": every page of the app at 1280 px and 390 px, in English and 简体中文, compared with the
 * baselines checked in beside this file (pages.spec.ts-snapshots/) on every run of `playwright test`.
 *
 * What keeps a screenshot the same on another machine (a fresh Debian CI box under load):
 *  - the fonts: this project's Chromium sees only the fonts listed in tests/visual/fonts.conf (FONTCONFIG_FILE,
 *    set in playwright.config.ts), from Debian packages .ci/run installs;
 *  - the time: a fixed clock and time zone, and dates the engine writes (in its worker, on the real clock)
 *    masked;
 *  - the data: each language and width starts from an empty device (a new browser context), adds the
 *    same memories and waits for the start-up memory clean-up's first run;
 *  - the motion: animations and the caret off, no service worker (its "ready to work offline" notice
 *    would come at a moment of its own), web fonts and the engine awaited before the shot;
 *  - a tolerance for anti-aliasing noise (maxDiffPixelRatio in playwright.config.ts).
 * Update the baselines on purpose only: `npm run build && npx playwright test --project=visual --update-snapshots`.
 */
import { expect, test, type Page } from '@playwright/test';
import { call, waitForEngine } from '../e2e/helpers';

const pages: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'chat', path: '/chat', ready: async (p) => expect(p.getByTestId('composer')).toBeVisible() },
  { name: 'write', path: '/write', ready: async (p) => expect(p.locator('main h1, main h2').first()).toBeVisible() },
  { name: 'memory', path: '/memory', ready: async (p) => expect(p.getByTestId('memory-row')).toHaveCount(3) },
  { name: 'recall', path: '/recall', ready: async (p) => expect(p.locator('main h1').first()).toBeVisible() },
  { name: 'inspect', path: '/inspect', ready: async (p) => expect(p.locator('main h1').first()).toBeVisible() },
  ...['general', 'model', 'privacy', 'memory', 'storage', 'maintenance', 'backup'].map((section) => ({
    name: `settings-${section}`,
    path: `/settings/${section}`,
    ready: async (p: Page) => expect(p.locator('main h1, main h2').first()).toBeVisible(),
  })),
];

const languages = [
  { name: 'en', locale: 'en-US' },
  { name: 'zh', locale: 'zh-CN' },
] as const;

const widths = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** The same memories on every run: the Memory page shows a list, not only its empty state. */
const seed = [
  { content: 'I prefer concise answers with one example.', category: 'preference' },
  { content: 'My sister is called Lena.', category: 'fact' },
  { content: '我住在杭州，每天骑自行车上班。', category: 'fact' },
];

/** What differs from machine to machine or run to run: dates the engine stamps, storage figures, versions. */
const varies = (page: Page) => [
  page.locator('time'),
  page.getByTestId('storage-usage'),
  page.getByTestId('storage-db-size'),
  page.getByTestId('storage-schema'),
  page.getByTestId('storage-sqlite'),
];

for (const language of languages) {
  for (const viewport of widths) {
    test.describe(`${language.name} at ${viewport.width} px`, () => {
      test.use({ locale: language.locale, viewport, timezoneId: 'UTC', serviceWorkers: 'block', colorScheme: 'light', reducedMotion: 'reduce' });

      // One device per language and width (seeding it is most of a test's time); every page is compared
      // with expect.soft, so one changed page does not hide the others.
      test('every page matches its baseline', async ({ page }) => {
        test.setTimeout(180_000);
        await page.clock.setFixedTime(new Date('2026-03-14T09:30:00Z'));
        await page.goto('/chat');
        await waitForEngine(page);
        for (const m of seed) await call(page, 'memory.create', m);
        // The jobs worker runs the memory clean-up at every start-up: wait for its first run, so the Maintenance
        // page shows its (masked) times on every machine rather than "not yet" on a slow one.
        await expect
          .poll(async () => {
            const status = await call<{ phases: Record<string, { lastOkAt: number | null }> }>(page, 'lifecycle.status');
            return Object.values(status.phases).every((p) => p.lastOkAt !== null);
          }, { timeout: 30_000 })
          .toBe(true);
        for (const target of pages) {
          await test.step(target.name, async () => {
            await page.goto(target.path);
            await waitForEngine(page);
            await target.ready(page);
            await page.evaluate(() => document.fonts.ready.then(() => undefined));
            await expect.soft(page).toHaveScreenshot(`${target.name}-${viewport.width}-${language.name}.png`, { fullPage: true, mask: varies(page) });
          });
        }
      });
    });
  }
}
