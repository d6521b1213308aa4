import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The speed harness page: NOT the SvelteKit app and NOT build/ — its own small build into bench/.cache/speed,
 * loading the app's own workers/db.worker.ts.
 */
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../.cache/speed', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Minified like the app's own build (vite.config.ts): the cold start loads and parses the DB worker's bundle, and
    // an unminified one (1.9 MB against the app's 0.9 MB) measured a start-up the app never ships. Source maps keep
    // a failing harness's stack traces readable.
    minify: true,
    sourcemap: true,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 10_000,
  },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
});
