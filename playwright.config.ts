import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';

// E2E_PORT lets two checkouts on one machine run their end-to-end suites side by side.
const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The tests reach the engine through the console handle, which the built app sets only when asked
    // (src/lib/ui/app/devtools.ts). Contexts made with browser.newContext() in a test start with it too.
    storageState: { cookies: [], origins: [{ origin: `http://127.0.0.1:${port}`, localStorage: [{ name: 'engram.devtools', value: '1' }] }] },
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium; never a downloaded browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
    },
  },
  // Two projects in one run: the end-to-end specs, and the visual baselines (issue 15) in a Chromium that sees
  // only the fonts listed in tests/visual/fonts.conf, so the screenshots match on any machine with those packages.
  projects: [
    { name: 'e2e', testDir: 'tests/e2e' },
    {
      name: 'visual',
      testDir: 'tests/visual',
      // Baselines are named by page, width and language; no {platform} or browser in the name (Linux only).
      snapshotPathTemplate: '{testDir}/{testFileName}-snapshots/{arg}{ext}',
      expect: { toHaveScreenshot: { animations: 'disabled', caret: 'hide', scale: 'css', maxDiffPixelRatio: 0.004, threshold: 0.2 } },
      use: {
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', '--font-render-hinting=none', '--disable-lcd-text'],
          env: { ...process.env, FONTCONFIG_FILE: fileURLToPath(new URL('./tests/visual/fonts.conf', import.meta.url)) },
        },
      },
    },
  ],
  webServer: {
    // --dev: files are read fresh on each request (the update test ships a new service worker mid-run).
    command: `npx sirv build --single --dev --port ${port} --host 127.0.0.1 --quiet`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
