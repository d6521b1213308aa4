import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGRAM_EXPORT_VERSION, exportSchema } from '../../domain/backup';
import { formatJsonSchema, formatMarkdown } from './format-docs';

/**
 * The committed format documentation must match what the schemas say. When the format changes on
 * purpose, regenerate: UPDATE_BACKUP_DOCS=1 npx vitest run src/lib/engine/backup/format-docs.test.ts
 */
const DOCS = [
  ['docs/backup-format.md', formatMarkdown],
  ['docs/backup-format.schema.json', formatJsonSchema],
] as const;

describe('backup format documentation', () => {
  it.each(DOCS)('%s is generated from the current schemas', (path, render) => {
    const url = new URL(`../../../../${path}`, import.meta.url);
    const expected = render();
    if (process.env.UPDATE_BACKUP_DOCS === '1') writeFileSync(url, expected);
    expect(existsSync(url), `${path} is missing: run with UPDATE_BACKUP_DOCS=1`).toBe(true);
    expect(readFileSync(url, 'utf8'), `${path} is stale: run with UPDATE_BACKUP_DOCS=1`).toBe(expected);
  });

  it('documents every table and every column', () => {
    const md = formatMarkdown();
    const tables = (exportSchema.shape.tables.def.innerType as unknown as { shape: Record<string, unknown> }).shape;
    for (const name of Object.keys(tables)) expect(md).toContain(`### \`${name}\``);
    expect(md).toContain('| `superseded_by` | string or null |');
    expect(md).toContain('| `role` | string (`user`, `assistant`) |');
    // Issue 13: the example names the current version, and no type cell prints an object.
    expect(md).toContain(`"version": ${ENGRAM_EXPORT_VERSION},`);
    expect(md).not.toContain('[object Object]');
  });
});
