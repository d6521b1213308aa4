/**
 * Builds the installable `engram` command (package.json `bin`): one ES module bundled by esbuild from
 * src/lib/node/main.ts, plus the migration SQL files it reads beside itself. Plain JavaScript on
 * purpose: it runs with nothing but Node and esbuild, and so does its output (no tsx at run time).
 *
 *   src/lib/node/main.ts ──esbuild (bundle, node20, esm)──▶ dist/cli/engram.js
 *   src/lib/engine/store/migrations/*.sql ──copy──────────▶ dist/cli/migrations/
 *
 * better-sqlite3 stays external: it is a native addon, installed (prebuilt or compiled) with the package.
 */
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
const migrations = join(root, 'src', 'lib', 'engine', 'store', 'migrations');

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'migrations'), { recursive: true });

await build({
  entryPoints: [join(root, 'src', 'lib', 'node', 'main.ts')],
  outfile: join(out, 'engram.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __engramRequire } from 'node:module';\nconst require = __engramRequire(import.meta.url);" },
  legalComments: 'eof',
  logLevel: 'warning',
});

for (const name of readdirSync(migrations)) if (name.endsWith('.sql')) cpSync(join(migrations, name), join(out, 'migrations', name));
