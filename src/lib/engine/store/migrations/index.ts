import { parseMigrationFiles } from '../migrate';

/** Bundled by Vite (browser worker) and Vitest; the Node host reads the same files from disk. */
const files = import.meta.glob('./*.sql', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const migrations = parseMigrationFiles(files);
