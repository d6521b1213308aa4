import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';

/**
 * A writer waiting for another connection's write lock: the holder is told at once (the first 50 ms slice), the
 * person only when a later slice waited too — a short brush between two writers prints nothing (cli-concurrency
 * failed on a notice for a wait of a few tens of ms once the first slice became 50 ms).
 */
describe('better-sqlite3 driver: waiting for the write lock in slices', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-lockwait-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function waitFor(busyTimeoutMs: number) {
    const path = join(dir, `db-${busyTimeoutMs}.db`);
    const holder = new Database(path);
    holder.pragma('journal_mode = WAL');
    holder.exec('CREATE TABLE t (x)');
    const told: string[] = [];
    const driver = createBetterSqlite3Driver(new Database(path), {
      lockWait: {
        busyTimeoutMs,
        sliceMs: 200,
        firstSliceMs: 20,
        onLockWait: () => told.push('holder told'),
        onStillWaiting: () => told.push('person told'),
        onLockWaitOver: () => told.push('over'),
      },
    });
    holder.exec('BEGIN IMMEDIATE');
    let failed = '';
    try {
      driver.transaction(() => driver.run('INSERT INTO t VALUES (1)'));
    } catch (err) {
      failed = (err as { code?: string }).code ?? 'error';
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      driver.close();
    }
    return { told, failed };
  }

  it('a wait shorter than the first slice plus one more tells the holder only', () => {
    // 20 ms slice fails → holder told; the rest (≤ 80 ms) fails at the deadline: no second slice waited through.
    expect(waitFor(100)).toEqual({ told: ['holder told', 'over'], failed: 'SQLITE_BUSY' });
  });

  it('a wait through a second slice tells the person once, however many slices follow', () => {
    expect(waitFor(700)).toEqual({ told: ['holder told', 'person told', 'over'], failed: 'SQLITE_BUSY' });
  });
});
