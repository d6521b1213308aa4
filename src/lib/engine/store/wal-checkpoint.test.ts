import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERSISTENT_JOURNAL_PRAGMAS, WAL_AUTOCHECKPOINT_FRAMES } from './open-wasm';

/**
 * Issue 19: a checkpoint runs inside the COMMIT that crosses the mark and copies the WAL's pages into the database
 * file; the OPFS database's journal pragmas bound how many frames the WAL holds before that happens. SQLite writes
 * the files (better-sqlite3 on a temporary file, 8 KiB pages as in the browser); the WAL file's size says how many
 * frames it ever held (a checkpointed WAL is written again from its start, not grown).
 */
const PAGE = 8192;
const FRAME = PAGE + 24;
let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-ckpt-'));
  db = new Database(join(dir, 'db.sqlite3'));
  db.pragma(`page_size = ${PAGE}`);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 2,000 one-row transactions, each a new 4 KiB row (a page or two a commit): the most frames the WAL held. */
function walFramesHeld(): number {
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  let most = 0;
  for (let i = 0; i < 2_000; i++) {
    insert.run(Buffer.alloc(4096, i % 251));
    most = Math.max(most, Math.floor((statSync(join(dir, 'db.sqlite3-wal')).size - 32) / FRAME));
  }
  return most;
}

describe('the OPFS journal checkpoints in small pieces (issue 19: no 280-page checkpoint inside a COMMIT)', () => {
  it(`the WAL never holds much more than ${WAL_AUTOCHECKPOINT_FRAMES} frames before a COMMIT checkpoints it`, () => {
    db.exec(PERSISTENT_JOURNAL_PRAGMAS);
    expect(String(db.pragma('journal_mode', { simple: true }))).toBe('wal');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_FRAMES);
    const held = walFramesHeld();
    // One transaction's frames may come on top of the mark (the checkpoint runs after the COMMIT that crossed it).
    expect(held).toBeGreaterThanOrEqual(WAL_AUTOCHECKPOINT_FRAMES);
    expect(held).toBeLessThanOrEqual(WAL_AUTOCHECKPOINT_FRAMES + 4);
  });

  it("SQLite's default (1,000 frames) would let five times as many pages pile up for one COMMIT to copy", () => {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;');
    expect(walFramesHeld()).toBeGreaterThanOrEqual(1_000);
  });
});
