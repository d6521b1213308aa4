import { defineConfig } from '@playwright/test';

/**
 * The built Storybook (npm run build-storybook → storybook-static/), each story's iframe opened in
 * Debian's Chromium and checked for what a person sees. Its own port (STORYBOOK_E2E_PORT, else E2E_PORT,
 * else 4214) so it never collides with the app's end-to-end server.
 */
const port = Number(process.env.STORYBOOK_E2E_PORT ?? process.env.E2E_PORT ?? 4214);

export default defineConfig({
  testDir: 'tests/storybook',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // The stories run on a fixed clock; dates read the same on every machine.
    locale: 'en-US',
    timezoneId: 'UTC',
    launchOptions: {
      // Debian's Chromium; never a downloaded browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npx sirv storybook-static --port ${port} --host 127.0.0.1 --quiet`,
    url: `http://127.0.0.1:${port}/iframe.html`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
