import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * SvelteKit points Vite's dependency scan at src/routes, whose layout imports the PWA plugin's virtual
 * modules (that plugin is not in this config): the dev server's scan failed on them. Storybook serves the
 * stories, so they are what is scanned. Runs after Kit's own config hook, which it replaces.
 */
const scanStoriesOnly: Plugin = {
  name: 'engram:storybook-scan-stories',
  enforce: 'post',
  config(config) {
    config.optimizeDeps = { ...config.optimizeDeps, entries: ['src/**/*.stories.ts', '.storybook/preview.ts'] };
  },
};

/** Storybook's Vite config: the app's Svelte/Kit setup only (vite.config.ts adds the PWA and the test runner). */
export default defineConfig({ plugins: [sveltekit(), scanStoriesOnly] });
