import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vite.config';

/**
 * The installed command (issue 14): `npm pack`, a global install into a temporary prefix (better-sqlite3
 * compiled from source, minutes of both cores), then the command run from there. On its own, after the
 * unit suite, so its compile never starves the unit tests' time limits.
 */
const config = mergeConfig(base, defineConfig({ test: { testTimeout: 20 * 60_000, hookTimeout: 25 * 60_000 } }));
// mergeConfig concatenates arrays: the unit suite's `include` is replaced, not extended.
config.test = { ...config.test, include: ['tests/install/**/*.test.ts'] };
export default config;
