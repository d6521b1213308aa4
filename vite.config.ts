import { sveltekit } from '@sveltejs/kit/vite';
import { SvelteKitPWA } from '@vite-pwa/sveltekit';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    sveltekit(),
    SvelteKitPWA({
      // An update waits for the user: never reload over unsaved writing.
      registerType: 'prompt',
      injectRegister: false,
      strategies: 'generateSW',
      kit: { adapterFallback: 'index.html', spa: true },
      manifest: {
        name: 'Engram — memory that stays on your device',
        short_name: 'Engram',
        description: 'Offline-first long-term memory for AI chat and writing. Nothing leaves your device.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f7f6f3',
        theme_color: '#3a5a8c',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The .wasm must be precached, or an offline reload cannot start the database.
        globPatterns: ['client/**/*.{js,css,ico,png,svg,webp,webmanifest,wasm,woff2}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        // @vite-pwa/sveltekit appends 'prerendered/**/*.{html,json}' to globPatterns unless this is set.
        // This SPA prerenders nothing (the shell is the adapter fallback, which the plugin precaches
        // itself with `kit.spa`), so that pattern matched no file and workbox warned on every build.
        modifyURLPrefix: {},
      },
      devOptions: { enabled: false },
    }),
  ],
  // Rolldown's [PLUGIN_TIMINGS] report names Kit's writeBundle, the PWA's closeBundle and the
  // worker-url transform as slow: fixed costs of the toolchain, not of our code, printed on every build
  // (three builds: ssr, client, worker). Measure a build with `node --cpu-prof` when it matters.
  build: { rolldownOptions: { checks: { bundlerTimings: false } } },
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  server: { fs: { allow: ['workers'] } },
  test: {
    include: ['src/**/*.test.ts', 'tests/acceptance/**/*.test.ts', 'tests/fixtures/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    pool: 'threads',
    // The tokenizer loads on first use in the app (domain/text/tokens.ts); tests count from their first line.
    setupFiles: ['src/lib/domain/text/tokens-setup.ts'],
  },
});
