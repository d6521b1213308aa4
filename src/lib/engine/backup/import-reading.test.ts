import { describe, expect, it } from 'vitest';
import { expectOk } from '../testing';
import { READ_BYTES } from './read-export';
import { createBackupTestEngine, exportText } from './testing';

/**
 * Issue 16: a preview reads its file piece by piece in the DB worker; backup.importReading says how far it has come
 * meanwhile (the file has no token until it is read), and that no file is being read before and after.
 */
describe('backup.importReading', () => {
  it('reports the bytes read of the file a preview is reading, rising to its size, then nothing', async () => {
    const a = await createBackupTestEngine({ idPrefix: 'a' });
    const s = expectOk(await a.engine.call('session.create', {}));
    for (let i = 0; i < 4; i++) expectOk(await a.engine.call('message.append', { sessionId: s.id, role: 'user', content: `${i} ${'登录超时 parseConfig '.repeat(9_000)}` }));
    const file = new Blob([await exportText(a.engine)]);
    expect(file.size).toBeGreaterThan(3 * READ_BYTES);

    const b = await createBackupTestEngine({ idPrefix: 'b' });
    expect(expectOk(await b.engine.call('backup.importReading', {}))).toEqual({ reading: false, bytesRead: 0, totalBytes: 0 });
    let finished = false;
    const previewing = b.engine.call('backup.importPreview', { file, mode: 'merge' }).finally(() => (finished = true));
    const seen: number[] = [];
    while (!finished) {
      const r = expectOk(await b.engine.call('backup.importReading', {}));
      if (r.reading) {
        expect(r.totalBytes).toBe(file.size);
        seen.push(r.bytesRead);
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expectOk(await previewing);
    // Seen part-way through, never going back, never past the file's end.
    expect(seen.some((n) => n > 0 && n < file.size)).toBe(true);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(Math.max(...seen)).toBeLessThanOrEqual(file.size);
    expect(expectOk(await b.engine.call('backup.importReading', {}))).toEqual({ reading: false, bytesRead: 0, totalBytes: 0 });
  });

  it('a file that cannot be read leaves no reading behind', async () => {
    const b = await createBackupTestEngine({ idPrefix: 'b' });
    const bad = await b.engine.call('backup.importPreview', { file: new Blob(['{"format":"engram-export","version":1,"tables":{"memories":[{"id":'.padEnd(3 * READ_BYTES, ' ')]), mode: 'merge' });
    expect(bad.ok).toBe(false);
    expect(expectOk(await b.engine.call('backup.importReading', {})).reading).toBe(false);
  });
});
