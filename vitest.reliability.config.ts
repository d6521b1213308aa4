import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vite.config';

/** The reliability suite's Node half (issue 13): property-based fuzzing of every protocol call, import files, settings. */
const config = mergeConfig(base, defineConfig({ test: { testTimeout: 10 * 60_000 } }));
// mergeConfig concatenates arrays, so the base's `include` (the whole unit suite) is replaced here, not extended.
config.test = { ...config.test, include: ['tests/reliability/**/*.test.ts'] };
export default config;
