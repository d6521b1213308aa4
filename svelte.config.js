import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // A pure SPA: every path falls back to the app shell, which the service worker precaches.
    adapter: adapter({ fallback: 'index.html' }),
    alias: { $workers: 'workers' },
    serviceWorker: { register: false },
  },
};

export default config;
