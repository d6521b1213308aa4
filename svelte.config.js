import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The inline scripts of src/app.html (the theme applied before first paint), by their SHA-256: the
 * Content-Security-Policy allows exactly these and the ones SvelteKit writes (which it hashes itself).
 * Read from the file, so an edit of the script can never silently break the page.
 */
const appHtmlScriptHashes = [...readFileSync(new URL('./src/app.html', import.meta.url), 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
  ([, body]) => `sha256-${createHash('sha256').update(body).digest('base64')}`,
);

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    // A pure SPA: every path falls back to the app shell, which the service worker precaches.
    adapter: adapter({ fallback: 'index.html' }),
    alias: { $workers: 'workers' },
    serviceWorker: { register: false },
    /**
     * Issue 13: a Content-Security-Policy in a <meta> of every page (a static host sends no headers).
     * Scripts: this origin and the hashed inline ones only — an injected <script>, event-handler
     * attribute or javascript: URL never runs. 'wasm-unsafe-eval' lets WebAssembly compile (SQLite).
     * Workers and the PWA's service worker come from this origin. Images and fonts too (data:/blob:
     * for generated ones), so no markdown trick can make the page fetch a foreign image. connect-src:
     * the model endpoint is whatever base URL the person configures — any http(s) origin, changeable
     * while the page is open — so it is allowed by scheme; what the app itself requests is held to this
     * origin and that endpoint by tests (e2e/privacy, reliability/privacy). docs/decisions.md says why.
     */
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self', 'wasm-unsafe-eval', ...appHtmlScriptHashes],
        'worker-src': ['self'],
        'connect-src': ['self', 'http:', 'https:'],
        'img-src': ['self', 'data:', 'blob:'],
        'font-src': ['self', 'data:'],
        // Svelte sets style attributes (and app.html has one); CSS cannot run script.
        'style-src': ['self', 'unsafe-inline'],
        'manifest-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['self'],
        'frame-src': ['none'],
      },
    },
  },
};

export default config;
