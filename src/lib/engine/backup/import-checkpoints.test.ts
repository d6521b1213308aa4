import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../store/driver';
import { expectOk } from '../testing';
import { createImportService } from './import-service';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, exportText } from './testing';

/**
 * Issue 16: import apply checkpoints the WAL between its slices (store/checkpoint-slices.ts), never in a slice's
 * COMMIT. Node counts no OPFS pages; here every slice's COMMIT counts as 40 pages, so after two slices (80 ≥ 64)
 * the next "slice" is the checkpoint alone. Counted: the checkpoints the apply ran and whether a transaction was
 * open at each.
 */
async function applyCounting(pagesCounted: boolean) {
  const a = await createBackupTestEngine({ idPrefix: 'a' });
  await fillEveryTable(a);
  const s = expectOk(await a.engine.call('session.create', {}));
  for (let i = 0; i < 150; i++) expectOk(await a.engine.call('message.append', { sessionId: s.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i} parseConfig 登录超时` }));
  const text = await exportText(a.engine);
  const b = await createBackupTestEngine({ idPrefix: 'b' });
  let depth = 0;
  let commits = 0;
  let slowWrites = false;
  const checkpointsInTransaction: boolean[] = [];
  const driver: SqlDriver = {
    ...b.driver,
    // While the apply runs each write takes at least 2 ms of wall time, so its 20 ms slices hold at most ~10 writes
    // on any machine: enough slices for several checkpoints however fast the machine is (slices end by the clock).
    run: (sql, p) => {
      if (slowWrites) for (const until = performance.now() + 2; performance.now() < until; );
      return b.driver.run(sql, p);
    },
    transaction: (fn) => {
      depth++;
      try {
        return b.driver.transaction(fn);
      } finally {
        if (--depth === 0) commits++;
      }
    },
    get: (sql, p) => {
      if (sql.includes('wal_checkpoint')) checkpointsInTransaction.push(depth > 0);
      return b.driver.get(sql, p);
    },
  };
  const imports = createImportService({
    env: { driver, clock: b.clock, ids: () => 'import-test', log: b.log },
    files: b.files,
    pagesWritten: () => (pagesCounted ? commits * 40 : null),
  });
  const preview = await imports.preview({ file: new Blob([text]), mode: 'merge' });
  const apply = imports.apply(preview.token, 'merge');
  const written = driver.transaction(() => apply.write());
  commits = 0;
  slowWrites = true;
  const result = await apply.then(written);
  slowWrites = false;
  const messages = b.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n ?? 0;
  return { result, commits, messages, checkpointsInTransaction };
}

describe('import apply checkpoints between its slices (issue 16)', () => {
  it('with pages counted: checkpoints run, each outside any transaction; not counted (Node): none', async () => {
    const counted = await applyCounting(true);
    expect(counted.messages).toBeGreaterThanOrEqual(150);
    // A checkpoint slice commits nothing: it adds no pages.
    expect(counted.commits).toBeGreaterThan(6);
    // One checkpoint after every second slice, the last one's excepted (nothing comes after it).
    expect(counted.checkpointsInTransaction.length).toBe(Math.floor((counted.commits - 1) / 2));
    expect(counted.checkpointsInTransaction).toEqual(counted.checkpointsInTransaction.map(() => false));

    const uncounted = await applyCounting(false);
    expect(uncounted.messages).toBe(counted.messages);
    expect(uncounted.checkpointsInTransaction).toEqual([]);
  }, 60_000);
});
