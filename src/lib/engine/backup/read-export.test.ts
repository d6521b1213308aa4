import { describe, expect, it } from 'vitest';
import { parseJsonSafely, validateExport } from '../../domain/backup';
import { PIECE_CHARS, readExportFile } from './read-export';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, exportText } from './testing';

/** An export with `n` more memories than the filled engine has: a large file of valid rows. */
async function largeExport(n: number): Promise<string> {
  const t = await createBackupTestEngine();
  await fillEveryTable(t);
  const file = JSON.parse(await exportText(t.engine)) as { tables: { memories: Record<string, unknown>[] } };
  const model = file.tables.memories[0] as Record<string, unknown>;
  for (let i = 0; i < n; i++) file.tables.memories.push({ ...model, id: `m-bulk-${i}`, key: `fact.bulk.${i}`, content: `第 ${i} 条：用户喜欢 Python 与 SQLite ${'细节'.repeat(40)}` });
  return JSON.stringify(file);
}

describe('reading an import file', () => {
  it('gives what reading it whole gives', async () => {
    const text = await largeExport(200);
    expect(await readExportFile(new Blob([text]))).toEqual(validateExport(parseJsonSafely(text)));
  });

  it('lets other calls run after every piece of the file it reads, however large the file', async () => {
    const text = await largeExport(3000);
    expect(text.length).toBeGreaterThan(10 * PIECE_CHARS);
    // With no time allowance, a pause after every piece: never more than PIECE_CHARS read without one.
    let pauses = 0;
    const read = await readExportFile(new Blob([text]), { sliceMs: 0, pause: async () => void pauses++ });
    expect(read).toEqual(validateExport(parseJsonSafely(text)));
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(text.length / PIECE_CHARS));
    // (How long another call waits in practice, with the default allowance, is measured by npm run bench:backup.)
  });
});
