import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { READ_BYTES } from '../backup/read-export';
import { fixtureFile, textFile } from './testing';

const NONE = { reading: false, bytesRead: 0, totalBytes: 0 };

/** Polls import.reading while `preview` runs; the bytes seen while it said it was reading. */
async function watchReading(engine: Awaited<ReturnType<typeof createTestEngine>>['engine'], preview: Promise<unknown>, totalBytes: number): Promise<number[]> {
  let finished = false;
  void preview.finally(() => (finished = true));
  const seen: number[] = [];
  while (!finished) {
    const r = expectOk(await engine.call('import.reading', {}));
    if (r.reading) {
      expect(r.totalBytes).toBe(totalBytes);
      seen.push(r.bytesRead);
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return seen;
}

/**
 * Issue 16: an import from another app reads its files in the DB worker, piece by piece; import.reading says how far
 * it has come while the preview runs (the files have no token until they are read), and that nothing is read before
 * and after — so the backup page can show "Reading the files: n %" for a large ChatGPT export.
 */
describe('import.reading', () => {
  it('reports the bytes read of a large ChatGPT export while it is previewed, rising to its size, then nothing', async () => {
    const raw = JSON.parse(await fixtureFile('chatgpt/conversations.json').file.text()) as unknown[];
    // The fixture's conversations many times over (new ids), so the file takes several reads.
    const many = Array.from({ length: 400 }, (_, i) => raw.map((c) => ({ ...(c as object), id: `c${i}-${(c as { id: string }).id}`, conversation_id: `c${i}-${(c as { id: string }).id}` }))).flat();
    const input = { source: 'chatgpt' as const, files: [textFile('conversations.json', JSON.stringify(many))] };
    const size = input.files[0]!.file.size;
    expect(size).toBeGreaterThan(3 * READ_BYTES);

    const { engine } = await createTestEngine();
    expect(expectOk(await engine.call('import.reading', {}))).toEqual(NONE);
    const previewing = engine.call('import.preview', input);
    const seen = await watchReading(engine, previewing, size);
    expect(expectOk(await previewing).messages.add).toBeGreaterThan(0);
    // Seen part-way through, never going back, never past the end.
    expect(seen.some((n) => n > 0 && n < size)).toBe(true);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(Math.max(...seen)).toBeLessThanOrEqual(size);
    expect(expectOk(await engine.call('import.reading', {}))).toEqual(NONE);
  });

  it('a folder of logs is counted file by file over all its bytes', async () => {
    const files = Array.from({ length: 30 }, (_, i) => textFile(`2026-01/day-${i}.md`, `User: question ${i}\nAssistant: answer ${i}\n`.repeat(50)));
    const total = files.reduce((n, f) => n + f.file.size, 0);
    const { engine } = await createTestEngine();
    const previewing = engine.call('import.preview', { source: 'logs', files });
    const seen = await watchReading(engine, previewing, total);
    expectOk(await previewing);
    expect(seen.some((n) => n > 0 && n < total)).toBe(true);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(expectOk(await engine.call('import.reading', {}))).toEqual(NONE);
  });

  it('files that cannot be read leave no reading behind', async () => {
    const { engine } = await createTestEngine();
    const bad = await engine.call('import.preview', { source: 'chatgpt', files: [textFile('conversations.json', '[{"mapping": '.padEnd(3 * READ_BYTES, ' '))] });
    expect(bad.ok).toBe(false);
    expect(expectOk(await engine.call('import.reading', {}))).toEqual(NONE);
  });
});
