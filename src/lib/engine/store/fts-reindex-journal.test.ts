import { describe, expect, it } from 'vitest';
import { createBackupTestEngine, ftsDigest } from '../backup/testing';
import { fillEveryTable } from '../backup/test-fill';
import type { SqlDriver } from './driver';
import { reindexInSlices } from './fts-reindex-slices';

/**
 * Issue 16 item 5: the reindex records where it stands (meta 'fts.reindex_progress') once a slice, at the slice's
 * end and in its transaction — not once a row, which made every step a fourth statement and a JSON string — and a
 * pass cut short still goes on from the last slice it committed.
 */
const JOURNAL = 'fts.reindex_progress';

async function filled() {
  const t = await createBackupTestEngine();
  await fillEveryTable(t);
  return t;
}

/** The driver, counting the journal's writes and failing the `failAt`-th full-text insert (a pass cut short). */
function watched(driver: SqlDriver, failAt = Infinity) {
  const seen = { journalWrites: 0, inserts: 0 };
  const wrapped: SqlDriver = {
    ...driver,
    exec: (sql) => driver.exec(sql),
    all: (sql, params) => driver.all(sql, params),
    get: (sql, params) => driver.get(sql, params),
    close: () => driver.close(),
    transaction: (fn) => driver.transaction(fn),
    run: (sql, params) => {
      if (/^INSERT INTO meta/.test(sql) && Array.isArray(params) && params[0] === JOURNAL) seen.journalWrites++;
      if (/^INSERT INTO \w+_fts \(rowid/.test(sql) && ++seen.inserts === failAt) throw new Error('cut short');
      return driver.run(sql, params);
    },
  };
  return { driver: wrapped, seen };
}

const rowsOf = (r: { messages: number; summaries: number; memories: number; episodes: number }) => r.messages + r.summaries + r.memories + r.episodes;

describe('the reindex’s journal (issue 16 item 5)', () => {
  it('is written once a slice at most, not once a row, and the rebuilt index is the one the repositories wrote', async () => {
    const t = await filled();
    const before = ftsDigest(t.driver);
    const { driver, seen } = watched(t.driver);
    let clock = 0;
    let slices = 0;
    // A clock that moves 1 ms a read and a 6 ms budget: a few rows a slice, many slices.
    const report = await reindexInSlices(driver, { budgetMs: 6, now: () => ++clock, pageBudget: 0, onSlice: () => slices++ });
    expect(rowsOf(report)).toBeGreaterThan(slices / 2);
    expect(slices).toBeGreaterThan(3);
    expect(seen.journalWrites).toBeGreaterThan(0);
    expect(seen.journalWrites).toBeLessThanOrEqual(slices);
    // Before: one write a row and one a table's end.
    expect(seen.journalWrites).toBeLessThan(rowsOf(report));
    expect(t.driver.get('SELECT value FROM meta WHERE key = ?', [JOURNAL])).toBeUndefined();
    expect(ftsDigest(t.driver)).toEqual(before);
  });

  it('cut short inside a slice, goes on from the last slice it committed: no committed row is written again, none is missed', async () => {
    const t = await filled();
    const before = ftsDigest(t.driver);
    const { driver } = watched(t.driver, 9);
    let clock = 0;
    let committed = 0;
    await expect(
      reindexInSlices(driver, { budgetMs: 6, now: () => ++clock, pageBudget: 0, onProgress: (rows) => (committed = rows) }),
    ).rejects.toThrow('cut short');
    expect(committed).toBeGreaterThan(0);
    const saved = t.driver.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [JOURNAL]);
    expect(saved && (JSON.parse(saved.value) as { step: number; after: number }).after).toBeGreaterThan(0);
    const resumed = await reindexInSlices(t.driver, {});
    const full = await reindexInSlices(t.driver, {});
    // The resumed pass wrote exactly the rows the first one had not committed.
    expect(rowsOf(resumed)).toBe(rowsOf(full) - committed);
    expect(ftsDigest(t.driver)).toEqual(before);
  });
});
