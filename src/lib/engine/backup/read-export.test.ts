import { describe, expect, it } from 'vitest';
import { parseJsonSafely, validateExport } from '../../domain/backup';
import { PIECE_CHARS, READ_BYTES, readExportFile } from './read-export';
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

  it('reads a file its platform hands over whole (as Node does) in bounded reads, a pause after each, the result unchanged', async () => {
    const text = await largeExport(3000);
    const bytes = new TextEncoder().encode(text);
    expect(bytes.length).toBeGreaterThan(4 * READ_BYTES);
    // How much of the file each read took: a stream in one chunk would be the whole file at once.
    const reads: number[] = [];
    class WholeFile extends Blob {
      override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
        reads.push(this.size);
        return super.stream();
      }
      override slice(start?: number, end?: number): Blob {
        const part = super.slice(start, end);
        reads.push(part.size);
        return part;
      }
    }
    let pauses = 0;
    const progress: number[] = [];
    const read = await readExportFile(new WholeFile([bytes]), {
      sliceMs: 0,
      pause: async () => void pauses++,
      onRead: (done, total) => {
        expect(total).toBe(bytes.length);
        progress.push(done);
      },
    });
    expect(read).toEqual(validateExport(parseJsonSafely(text)));
    expect(Math.max(...reads)).toBeLessThanOrEqual(READ_BYTES);
    expect(reads.reduce((n, r) => n + r, 0)).toBe(bytes.length);
    expect(pauses).toBeGreaterThanOrEqual(reads.length);
    expect(progress).toEqual(reads.map((_, i) => Math.min((i + 1) * READ_BYTES, bytes.length)));
    // Some reads end inside a character (its UTF-8 continuation byte comes next): decoded whole all the same.
    const cutInside = progress.slice(0, -1).filter((at) => ((bytes[at] as number) & 0xc0) === 0x80);
    expect(cutInside.length).toBeGreaterThan(0);
  });
});
