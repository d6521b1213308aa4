import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { randomId, systemClock } from '../../domain/clock';
import { silentLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';
import { checkpointBetweenSlices } from './checkpoint-slices';
import type { SqlDriver } from './driver';
import { reindexInSlices } from './fts-reindex-slices';
import { migrations } from './migrations';
import { PERSISTENT_JOURNAL_PRAGMAS, WAL_AUTOCHECKPOINT_FRAMES } from './open-wasm';
import { runInSlices } from './slices';

/**
 * Issue 16: a reindex slice's COMMIT that crossed the autocheckpoint mark also copied the whole WAL into the
 * database file (the 125 ms COMMIT behind 100,000 turns' longest wait). The reindex now checkpoints between its
 * slices, in a slice of its own. SQLite writes a real WAL here (better-sqlite3 on a temporary file, the browser's
 * journal pragmas and 8 KiB pages); SQLite's own answer to each checkpoint says how many frames it copied.
 */
const PAGE = 8192;
const FRAME = PAGE + 24;
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('a sliced job checkpoints the WAL between its slices, never inside one (issue 16)', () => {
  it('the reindex runs every checkpoint outside a transaction, each copying one slice of frames, and no COMMIT reaches the mark', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-ckpt-slices-'));
    const db = new Database(join(dir, 'db.sqlite3'));
    db.pragma(`page_size = ${PAGE}`);
    db.exec(PERSISTENT_JOURNAL_PRAGMAS);
    db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF;'); // the frames are the same; the fill is faster
    const base = createBetterSqlite3Driver(db);
    const engine = createEngine(
      { driver: base, clock: systemClock, ids: randomId, log: silentLogger, storage: { kind: 'memory', reason: 'test' }, startedAt: Date.now() },
      migrations,
    );
    const session = expectOk(await engine.call('session.create', { title: 'long' })) as { id: string };
    // Long varied rows: each rewritten row's terms fill FTS pages, so the pass writes hundreds of WAL frames.
    for (let i = 0; i < 600; i++) {
      const words = Array.from({ length: 120 }, (_, k) => `w${(i * 61 + k * 17) % 5003}x${k}`).join(' ');
      expectOk(await engine.call('message.append', { sessionId: session.id, role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: ${words} parseConfig 登录超时` }));
    }
    db.pragma('wal_checkpoint(TRUNCATE)');

    const checkpointsInTransaction: boolean[] = [];
    const spied: SqlDriver = {
      ...base,
      transaction: (fn) => base.transaction(fn),
      get: (sql, p) => {
        if (sql.includes('wal_checkpoint')) checkpointsInTransaction.push(db.inTransaction);
        return base.get(sql, p);
      },
    };
    let mostFrames = 0;
    let emptySlices = 0;
    let checkpoints: readonly { log: number; checkpointed: number }[] = [];
    // A clock that moves 1 ms each time it is read: the slices are as many on any machine (a real 4 ms budget gave
    // 38 checkpoints here at load 4, and would give fewer, fuller ones on a faster machine).
    let tick = 0;
    const report = await reindexInSlices(spied, {
      budgetMs: 4,
      now: () => ++tick,
      onSlice: (_ms, t) => {
        if (t.steps === 0) emptySlices++;
        mostFrames = Math.max(mostFrames, Math.floor((statSync(join(dir, 'db.sqlite3-wal')).size - 32) / FRAME));
      },
      onCheckpoints: (c) => (checkpoints = c),
      // better-sqlite3 counts no pages: "none written, checkpoint at every 0" is a checkpoint after every slice.
      pagesWritten: () => 0,
      checkpointEveryPages: 0,
    });
    expect(report.messages).toBe(600);
    // Checkpoints ran, each alone (a slice of no steps), outside any transaction, and copied the whole WAL.
    expect(checkpoints.length).toBeGreaterThan(10);
    expect(emptySlices).toBe(checkpoints.length);
    expect(checkpointsInTransaction).toEqual(checkpoints.map(() => false));
    const copied = checkpoints.reduce((n, c) => n + c.checkpointed, 0);
    expect(copied).toBeGreaterThan(WAL_AUTOCHECKPOINT_FRAMES); // the pass wrote more than one mark's worth …
    for (const c of checkpoints) {
      expect(c.checkpointed).toBe(c.log);
      expect(c.log).toBeLessThan(WAL_AUTOCHECKPOINT_FRAMES); // … but no checkpoint copied a mark's worth,
    }
    expect(mostFrames).toBeLessThan(WAL_AUTOCHECKPOINT_FRAMES); // and the WAL never reached the mark at a COMMIT.
    db.close();
  });

  it('with pages counted, checkpoints once the slices have written `everyPages` pages, not after every slice', async () => {
    let pages = 0;
    const sql: string[] = [];
    let inTx = false;
    const fake = {
      kind: 'better-sqlite3',
      exec: () => {},
      run: () => ({ changes: 0, lastInsertRowid: 0 }),
      all: () => [],
      get: (s: string) => (sql.push(`${s}${inTx ? ' (in a transaction)' : ''}`), { busy: 0, log: 7, checkpointed: 7 }),
      close: () => {},
      transaction: <T,>(fn: () => T): T => {
        inTx = true;
        try {
          return fn();
        } finally {
          inTx = false;
          pages += 30; // each slice's COMMIT writes 30 pages
        }
      },
    } as unknown as SqlDriver;
    const c = checkpointBetweenSlices(fake, { everyPages: 64, pagesWritten: () => pages });
    let left = 10;
    let tick = 0;
    const slices: number[] = [];
    // Two steps a slice (the injected clock), ten steps in all.
    await runInSlices({ driver: c.driver, budgetMs: 2, now: () => ++tick, step: () => --left > 0, onSlice: (_ms, t) => slices.push(t.steps) });
    // Three job slices of 30 pages (90 ≥ 64), then the checkpoint alone; never after one or two (30, 60 < 64).
    expect(slices).toEqual([2, 2, 2, 0, 2, 2]);
    expect(sql).toEqual(['PRAGMA wal_checkpoint(PASSIVE)']);
    expect(c.checkpoints()).toEqual([{ log: 7, checkpointed: 7 }]);
    // Where pages are not counted (Node), it leaves checkpoints to SQLite: none between the slices.
    const uncounted = checkpointBetweenSlices(fake, { everyPages: 64, pagesWritten: () => null });
    left = 10;
    await runInSlices({ driver: uncounted.driver, budgetMs: 2, now: () => ++tick, step: () => --left > 0 });
    expect(uncounted.checkpoints()).toEqual([]);
  });
});
