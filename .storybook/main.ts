import type { StorybookConfig } from '@storybook/sveltekit';

/**
 * Storybook for the Memory page's components (issue 19 item 11). Offline like the app: telemetry off
 * (here and STORYBOOK_DISABLE_TELEMETRY=1 in the npm scripts), no addons, no update check. It builds with
 * .storybook/vite.config.ts — SvelteKit alone, without the app's PWA plugin (no service worker in here).
 */
const config: StorybookConfig = {
  stories: ['../src/**/*.stories.ts'],
  addons: [],
  // No docs pages or controls: docgen would only slow the build (it was three quarters of it).
  framework: { name: '@storybook/sveltekit', options: { docgen: false, builder: { viteConfigPath: '.storybook/vite.config.ts' } } },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true, enableCrashReports: false },
  // The builder ignores a Vite config's `build`, so the build's own settings go here. Storybook's
  // manager/preview runtime is one ~1 MB chunk by design: no warning for it. Like the app's build, no
  // [PLUGIN_TIMINGS] report of the toolchain's fixed costs on every run.
  viteFinal: (vite) => ({
    ...vite,
    build: { ...vite.build, chunkSizeWarningLimit: 1500, rolldownOptions: { ...vite.build?.rolldownOptions, checks: { bundlerTimings: false } } },
  }),
};

export default config;
