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
    // Readable stack traces if the harness fails; size does not matter here.
    minify: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 10_000,
  },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
});
