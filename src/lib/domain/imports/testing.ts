/** Test support: the fixture files of tests/fixtures/imports (Node only; tests never ship). */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const IMPORT_FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../tests/fixtures/imports');
export const fixtureText = (path: string) => readFileSync(join(IMPORT_FIXTURES, path), 'utf8');
export const ST_CHAT = 'sillytavern/Captain Mirelle - 2025-3-2 @19h 04m 11s 512ms.jsonl';
