import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, fixedClock, sequentialIds } from '../../domain/clock';
import { silentLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { expectOk } from '../testing';
import { createBetterSqlite3Driver } from '../store/better-sqlite3-driver';
import type { SqlDriver } from '../store/driver';
import { migrations } from '../store/migrations';
import { PERSISTENT_JOURNAL_PRAGMAS, WAL_AUTOCHECKPOINT_FRAMES } from '../store/open-wasm';
import { createLifecycleService } from './service';

/**
 * Issue 19: 8 of the clean-up's 10 slowest slices in the browser had SQLite's 200-frame autocheckpoint in their
 * COMMIT. The clean-up (decay, compress with its vacuum steps, purge) now checkpoints between its slices, as the
 * reindex and import apply do (store/checkpoint-slices.ts). A real WAL here: better-sqlite3 on a temporary file with
 * the browser's journal pragmas and 8 KiB pages. Node has no OPFS page counters; the test counts the WAL's pages
 * itself — `journal_size_limit = 0` makes SQLite cut the WAL back to the frames of the COMMIT that restarts it, so
 * the file's size is the frames the WAL holds, and the pages written are its growth, restarts included.
 */
const PAGE = 8192;
const FRAME = PAGE + 24;
const T0 = Date.UTC(2026, 0, 17, 10, 30, 0);
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function setUp() {
  dir = mkdtempSync(join(tmpdir(), 'engram-lifecycle-ckpt-'));
  const db = new Database(join(dir, 'db.sqlite3'));
  db.pragma(`page_size = ${PAGE}`);
  db.exec(PERSISTENT_JOURNAL_PRAGMAS);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF; PRAGMA journal_size_limit = 0;');
  const base = createBetterSqlite3Driver(db);
  const clock = fixedClock(T0);
  const engine = createEngine(
    { driver: base, clock, ids: sequentialIds('t'), log: silentLogger, storage: { kind: 'memory', reason: 'test' }, startedAt: clock.now() },
    migrations,
  );
  const project = expectOk(await engine.call('project.create', { name: 'p' })) as { id: string };
  // 300 episodes past the 180-day TTL (compressed, ~1.2 KB of candidates freed each, then vacuumed) and 300
  // compressed ones past the 365-day TTL (purged): every phase writes, hundreds of WAL frames in all.
  const insert = (n: number, prefix: string, ageDays: number, compressed: 0 | 1) =>
    base.run(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
       INSERT INTO episodes (id, kind, skill_id, project_id, scene_type, input_summary, candidates, selected_index, implicit, valence, importance, compressed, created_at, updated_at)
       SELECT ? || i, 'skill-run', 'continue', ?, 'action', 'x', json_array(printf('%.600c', 'a'), printf('%.600c', 'b')), 0, 'weak-positive', 0.4, 0.5, ?, ? + i, ? + i FROM seq`,
      [n, prefix, project.id, compressed, clock.now() - ageDays * DAY_MS, clock.now() - ageDays * DAY_MS],
    );
  base.transaction(() => (insert(300, 'old-', 200, 0), insert(300, 'gone-', 400, 1)));
  db.pragma('wal_checkpoint(TRUNCATE)');

  const walFrames = () => {
    try {
      return Math.max(0, Math.floor((statSync(join(dir, 'db.sqlite3-wal')).size - 32) / FRAME));
    } catch {
      return 0;
    }
  };
  // The pages appended to the WAL so far (what the OPFS counters give the browser): growth, or a restart's frames.
  let pages = 0;
  let last = walFrames();
  const pagesWritten = () => {
    const now = walFrames();
    pages += now >= last ? now - last : now;
    last = now;
    return pages;
  };
  // Every COMMIT's WAL size (a COMMIT that crossed the mark checkpointed in it) and where each checkpoint ran.
  const framesAtCommit: number[] = [];
  const checkpointsInTransaction: boolean[] = [];
  const spied: SqlDriver = {
    ...base,
    // Each write takes at least 1 ms of wall time, so the clean-up's 5 ms slices hold a handful of writes on any
    // machine (slices end by the clock): as many slices, pages and checkpoints on a fast machine as on a slow one.
    run: (sql, p) => {
      for (const until = performance.now() + 1; performance.now() < until; );
      return base.run(sql, p);
    },
    transaction: (fn) => {
      try {
        return base.transaction(fn);
      } finally {
        framesAtCommit.push(walFrames());
      }
    },
    get: (sql, p) => {
      if (sql.includes('wal_checkpoint')) checkpointsInTransaction.push(db.inTransaction);
      return base.get(sql, p);
    },
  };
  return { db, clock, spied, pagesWritten, framesAtCommit, checkpointsInTransaction };
}

describe('the clean-up checkpoints the WAL between its slices, never in a COMMIT (issue 19)', () => {
  it('with pages counted: every checkpoint outside a transaction, and no clean-up COMMIT reaches the autocheckpoint mark', async () => {
    const s = await setUp();
    const lifecycle = createLifecycleService({ driver: s.spied, clock: s.clock, log: silentLogger }, { pagesWritten: s.pagesWritten });
    const run = await lifecycle.run({ phases: ['decay', 'compress', 'purge'], vacuum: false });
    if (run.state !== 'done') throw new Error(run.state);
    const did = Object.fromEntries(run.phases.map((p) => [p.phase, p]));
    expect(did.compress).toMatchObject({ compressed: 300 });
    expect(did.purge).toMatchObject({ deleted: 600 }); // the 300 past their TTL, and the 300 just compressed (decay < 0.1)
    // The clean-up wrote well over a mark's worth of pages …
    expect(s.pagesWritten()).toBeGreaterThan(2 * WAL_AUTOCHECKPOINT_FRAMES);
    // … checkpointing in between, each checkpoint alone, outside any transaction …
    expect(s.checkpointsInTransaction.length).toBeGreaterThan(3);
    expect(s.checkpointsInTransaction).toEqual(s.checkpointsInTransaction.map(() => false));
    // … so the WAL never held a mark's worth at a COMMIT: none of them ran SQLite's autocheckpoint.
    expect(Math.max(...s.framesAtCommit)).toBeLessThan(WAL_AUTOCHECKPOINT_FRAMES);
    // The run says how many checkpoints it made (the job history keeps it).
    expect(run.checkpoints).toBe(s.checkpointsInTransaction.length);
    s.db.close();
  });

  it('where pages are not counted (Node by default), no checkpoint between slices: SQLite checkpoints in a COMMIT as before', async () => {
    const s = await setUp();
    const lifecycle = createLifecycleService({ driver: s.spied, clock: s.clock, log: silentLogger }, { pagesWritten: () => null });
    const run = await lifecycle.run({ phases: ['decay', 'compress', 'purge'], vacuum: false });
    expect(run).toMatchObject({ state: 'done', checkpoints: 0 });
    expect(s.checkpointsInTransaction).toEqual([]);
    // The same work without them: some COMMIT crossed the mark (and checkpointed in it).
    expect(Math.max(...s.framesAtCommit)).toBeGreaterThanOrEqual(WAL_AUTOCHECKPOINT_FRAMES);
    s.db.close();
  });
});
