import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { ENGRAM_EXPORT_VERSION } from './format';
import { migrateExportFile } from './migrate-format';
import { validateExport } from './validate';

const v0 = () => JSON.parse(readFileSync(new URL('../../../../tests/fixtures/backup/export-v0.json', import.meta.url), 'utf8')) as Record<string, unknown>;

function codeOf(run: () => unknown): { code: string; message: string; fields: unknown } {
  try {
    run();
  } catch (err) {
    if (err instanceof EngineError) return { code: err.code, message: err.message, fields: err.details?.fields };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('export format versions', () => {
  it('migrates a version-0 file: scope everything, no files, profile versions restore nothing', () => {
    const { file, migratedFrom } = validateExport(v0());
    expect(migratedFrom).toBe(0);
    expect(file.version).toBe(ENGRAM_EXPORT_VERSION);
    expect(file.scope).toEqual({ kind: 'all' });
    expect(file.files).toEqual([]);
    expect(file.tables.user_profile).toEqual([expect.objectContaining({ version: 1, restores: null })]);
    expect(file.tables.memories[0]).toMatchObject({ id: 'm-legacy-1', content: '用户喜欢用 Python 写代码' });
    // Tables the old format did not have are simply empty.
    expect(file.tables.semantic_rules).toEqual([]);
  });

  it('migrates a version-1 file: symbol entries lose their context excerpt and nothing else', () => {
    const entry = { symbol: 'processPayment', turn_id: 3, relevance: 0.9 };
    const { value, from } = migrateExportFile({
      format: 'engram-export',
      version: 1,
      exportedAt: '2026-01-17T10:30:00.000Z',
      tables: { symbol_index: [{ ...entry, context: 'processPayment 没有幂等键' }], messages: [] },
    });
    expect(from).toBe(1);
    expect(value).toMatchObject({ version: ENGRAM_EXPORT_VERSION, tables: { symbol_index: [entry], messages: [] } });
    expect((value.tables as { symbol_index: object[] }).symbol_index[0]).not.toHaveProperty('context');
  });

  it('leaves a current file as it is', () => {
    const current = { format: 'engram-export', version: ENGRAM_EXPORT_VERSION, exportedAt: '2026-01-17T10:30:00.000Z', tables: {} };
    expect(migrateExportFile(current)).toEqual({ value: current, from: ENGRAM_EXPORT_VERSION });
  });

  it.each([
    ['a newer version', { format: 'engram-export', version: ENGRAM_EXPORT_VERSION + 1 }, 'UNSUPPORTED_VERSION', ['version'], /newer Engram/],
    ['another format', { format: 'mem0-export', version: 1 }, 'INVALID_ARGUMENT', ['format'], /not an Engram export/],
    ['a version that is not a whole number', { format: 'engram-export', version: '1' }, 'INVALID_ARGUMENT', ['version'], /whole number/],
    ['a negative version', { format: 'engram-export', version: -1 }, 'INVALID_ARGUMENT', ['version'], /whole number/],
    ['an array', [], 'INVALID_ARGUMENT', ['file'], /JSON object/],
  ])('refuses %s', (_, raw, code, fields, message) => {
    const err = codeOf(() => migrateExportFile(raw));
    expect(err).toMatchObject({ code, fields });
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/Nothing was imported\.$/);
  });
});
