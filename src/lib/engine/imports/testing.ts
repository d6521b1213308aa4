/** Test support for imports: fixture files as the engine receives them, and the import run to its end. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IMPORT_FIXTURES } from '../../domain/imports/testing';
import { expectOk } from '../testing';
import type { Engine } from '../engine';
import { driveImport } from './drive';
import type { ImportFileInput } from './read-import';

export const fixtureFile = (path: string, name = path.split('/').pop() as string): ImportFileInput => ({
  name,
  file: new Blob([readFileSync(join(IMPORT_FIXTURES, path))]),
});

/** Every file below a fixture folder, named by its path inside it (as a folder pick gives them). */
export function fixtureFolder(dir: string): ImportFileInput[] {
  const root = join(IMPORT_FIXTURES, dir);
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return walk(root)
    .sort()
    .map((full) => ({ name: relative(root, full).split('\\').join('/'), file: new Blob([readFileSync(full)]) }));
}

export const textFile = (name: string, text: string): ImportFileInput => ({ name, file: new Blob([text]) });

/** Preview, then every step and the finish; returns the preview and the outcome. */
export async function importAll(engine: Engine, input: Parameters<Engine['call']>[1] & object) {
  const preview = expectOk(await engine.call('import.preview', input as never));
  const outcome = await driveImport({ engine, preview });
  if (outcome.kind !== 'done') throw new Error(`import ${outcome.kind}: ${outcome.kind === 'failed' ? outcome.error.message : ''}`);
  return { preview, result: outcome.result };
}
