import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

/** Storybook's Vite config: the app's Svelte/Kit setup only (vite.config.ts adds the PWA and the test runner). */
export default defineConfig({ plugins: [sveltekit()] });
