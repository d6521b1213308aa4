import { describe, expect, it } from 'vitest';
import { parseJsonSafely, validateExport } from '../../domain/backup';
import { readExportFile } from './read-export';
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

/** The longest time the event loop could not run anything else while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<{ stall: number; total: number }> {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  await work();
  const total = performance.now() - started;
  clearInterval(timer);
  return { stall: Math.max(stall, performance.now() - last), total };
}

describe('reading an import file', () => {
  it('gives what reading it whole gives', async () => {
    const text = await largeExport(200);
    expect(await readExportFile(new Blob([text]))).toEqual(validateExport(parseJsonSafely(text)));
  });

  it('never holds up other work for long, however large the file', async () => {
    const blob = new Blob([await largeExport(60_000)]);
    expect(blob.size).toBeGreaterThan(30 * 1024 * 1024);
    const whole = await longestStall(async () => validateExport(parseJsonSafely(await blob.text())));
    const pieces = await longestStall(() => readExportFile(blob));
    // Read whole, one stretch of parsing and checking blocks everything else; piece by piece, short pauses only.
    expect(whole.stall).toBeGreaterThan(300);
    expect(pieces.stall).toBeLessThan(Math.min(200, whole.stall / 4));
  });
});
