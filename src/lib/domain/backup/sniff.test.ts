import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { MAX_BACKUP_BYTES } from './limits';
import { checkFileSize, sniffExportHead } from './sniff';

function refusal(run: () => void): EngineError | null {
  try {
    run();
    return null;
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
}

describe('refusals before the file is read', () => {
  it.each([
    [0, 'INVALID_ARGUMENT'],
    [1, null],
    [MAX_BACKUP_BYTES, null],
    [MAX_BACKUP_BYTES + 1, 'INVALID_ARGUMENT'],
    [200 * 1024 * 1024, null],
    [600 * 1024 * 1024, 'INVALID_ARGUMENT'],
  ])('a file of %i bytes → %s', (bytes, code) => {
    expect(refusal(() => checkFileSize(bytes))?.code ?? null).toBe(code);
  });

  it.each([
    ['our header', '{"format":"engram-export","version":1,"exportedAt":"2026-01-17T10:30:00.000Z","tables":{"projects":[', null, null],
    ['a newer version', '{"format":"engram-export","version":7,"tables":{', 'UNSUPPORTED_VERSION', 'version'],
    ['another tool', '\uFEFF  {"format":"mem0","version":1}', 'INVALID_ARGUMENT', 'format'],
    ['not a JSON object', 'SQLite format 3\u0000', 'INVALID_ARGUMENT', 'file'],
    ['a version inside the data, not the header', '{"tables":{"settings":[{"version":99}]}', null, null],
    ['a cut-off opening', '{"form', null, null],
  ])('%s', (_, head, code, field) => {
    const err = refusal(() => sniffExportHead(head));
    expect(err?.code ?? null).toBe(code);
    if (err) expect(err.details?.fields).toEqual([field]);
  });
});
