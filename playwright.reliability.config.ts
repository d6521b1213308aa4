import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * The reliability suite (issue 13): crash, tabs, quota, hostile text and privacy runs in Chromium that print their
 * figures. Same server and browser as the end-to-end suite; longer budgets, since each test repeats its scenario.
 */
export default defineConfig({
  ...base,
  testDir: 'tests/reliability',
  // One project of its own, not the end-to-end and visual projects of the base config.
  projects: [{ name: 'reliability' }],
  testMatch: '*.spec.ts',
  timeout: 15 * 60_000,
});
