import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMigrationFiles, type Migration } from './migrate';

/** Node-only: the same SQL files, read from disk (for the CLI and benchmarks run without Vite). */
export function loadMigrationsFromDisk(dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations')): Migration[] {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) if (name.endsWith('.sql')) files[name] = readFileSync(join(dir, name), 'utf8');
  return parseMigrationFiles(files);
}
