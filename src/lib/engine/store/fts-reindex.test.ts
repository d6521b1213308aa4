import { describe, expect, it } from 'vitest';
import { segmenterVersion } from '../../domain/text';
import { createBackupTestEngine, ftsDigest } from '../backup/testing';
import { fillEveryTable } from '../backup/test-fill';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import { SEGMENTER_META_KEY, storedSegmenterVersion } from './fts-reindex';
import { migrations } from './migrations';

const FTS = ['messages_fts', 'summaries_fts', 'memories_fts', 'episodes_fts'];

async function filled() {
  const t = await createBackupTestEngine();
  await fillEveryTable(t);
  return t;
}

/** The recall page's full-text search (no symbol index, no substring scan for this query). */
const searchHits = async (t: Awaited<ReturnType<typeof filled>>, query: string) =>
  expectOk(await t.engine.call('search.messages', { query })).total;

describe('maintenance.reindex (002 memory_reindex)', () => {
  it('rebuilds exactly the index the repositories wrote, and counts the rows of each table', async () => {
    const t = await filled();
    const before = ftsDigest(t.driver);
    const report = expectOk(await t.engine.call('maintenance.reindex', {}));
    expect(ftsDigest(t.driver)).toEqual(before);
    const count = (table: string) => t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n;
    expect(report).toMatchObject({
      messages: count('messages'),
      summaries: count('summaries'),
      memories: count('memories'),
      segmenterVersion: segmenterVersion(),
    });
    expect(report.messages).toBeGreaterThan(0);
    expect(report.memories).toBeGreaterThan(0);
  });

  it('brings back search over an index that lost its rows', async () => {
    const t = await filled();
    const found = await searchHits(t, 'PaymentHandler 互斥锁');
    expect(found).toBeGreaterThan(0);
    for (const f of FTS) t.driver.run(`INSERT INTO ${f}(${f}) VALUES ('delete-all')`);
    expect(await searchHits(t, 'PaymentHandler 互斥锁')).toBe(0);
    expectOk(await t.engine.call('maintenance.reindex', {}));
    expect(await searchHits(t, 'PaymentHandler 互斥锁')).toBe(found);
  });
});

describe('segmenter version at engine start', () => {
  it('a new database records the current segmenter version', async () => {
    const t = await createBackupTestEngine();
    expect(storedSegmenterVersion(t.driver)).toBe(segmenterVersion());
  });

  it.each([
    ['another segmenter wrote the index', 'r0-00000000'],
    ['no version was recorded (an older database)', null],
  ])('re-indexes when %s', async (_, stored) => {
    const t = await filled();
    const before = ftsDigest(t.driver);
    for (const f of FTS) t.driver.run(`INSERT INTO ${f}(${f}) VALUES ('delete-all')`);
    if (stored === null) t.driver.run('DELETE FROM meta WHERE key = ?', [SEGMENTER_META_KEY]);
    else t.driver.run('UPDATE meta SET value = ? WHERE key = ?', [stored, SEGMENTER_META_KEY]);
    createEngine(t.engine.env, migrations);
    expect(ftsDigest(t.driver)).toEqual(before);
    expect(storedSegmenterVersion(t.driver)).toBe(segmenterVersion());
    expect(t.log.lines.some((l) => l.event === 'fts.reindexed' && l.fields?.from === stored)).toBe(true);
  });

  it('leaves the index alone when the version is current', async () => {
    const t = await filled();
    // An index emptied behind the engine's back stays empty: start-up did not rebuild it.
    t.driver.run("INSERT INTO messages_fts(messages_fts) VALUES ('delete-all')");
    createEngine(t.engine.env, migrations);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages_fts_docsize')?.n).toBe(0);
    expect(t.log.lines.some((l) => l.event === 'fts.reindexed')).toBe(false);
  });
});
