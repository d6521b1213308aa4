import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyWal } from './wal-replay';

/**
 * The read-only start on a full disk (issue 13 defect 2) opens a copy of the database files: the
 * copy must hold every committed transaction, including those still in the WAL, and nothing else.
 * SQLite itself writes the files here; the replayed image is read back by SQLite.
 */
let dir: string;
let path: string;
let live: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-wal-'));
  path = join(dir, 'db.sqlite3');
  live = new Database(path);
  live.pragma('journal_mode = WAL');
  live.pragma('wal_autocheckpoint = 0');
  live.pragma('page_size = 8192');
  live.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  live.pragma('wal_checkpoint(TRUNCATE)');
});

afterEach(() => {
  live.close();
  rmSync(dir, { recursive: true, force: true });
});

const files = () => ({ db: new Uint8Array(readFileSync(path)), wal: new Uint8Array(readFileSync(`${path}-wal`)) });
const rowsOf = (image: Uint8Array) => {
  const copy = new Database(Buffer.from(image));
  try {
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    return copy.prepare('SELECT id, v FROM t ORDER BY id').all();
  } finally {
    copy.close();
  }
};
const insert = (from: number, to: number) =>
  live.transaction(() => {
    for (let i = from; i <= to; i++) live.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(i, `row ${i} ${'x'.repeat(300)}`);
  })();

describe('applyWal', () => {
  it('the main file alone lacks the commits still in the WAL; with the WAL applied every one is there', () => {
    insert(1, 50);
    insert(51, 120);
    const { db, wal } = files();
    expect(rowsOf(applyWal(db, null).image)).toHaveLength(0);
    const replay = applyWal(db, wal);
    expect(replay.commits).toBe(2);
    expect(rowsOf(replay.image)).toEqual(live.prepare('SELECT id, v FROM t ORDER BY id').all());
  });

  it('a torn last frame (a crash mid-commit) leaves that transaction out, the earlier ones in', () => {
    insert(1, 10);
    const before = files().wal.byteLength;
    insert(11, 400);
    const { db, wal } = files();
    // Cut the log inside the second transaction's frames.
    const torn = wal.subarray(0, before + Math.floor((wal.byteLength - before) / 2));
    const rows = rowsOf(applyWal(db, torn).image) as { id: number }[];
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('a frame whose checksum does not hold ends the replay there', () => {
    insert(1, 10);
    const before = files().wal.byteLength;
    insert(11, 20);
    const { db, wal } = files();
    const damaged = wal.slice();
    damaged[before + 24 + 100] = (damaged[before + 24 + 100]! + 1) & 0xff;
    expect((rowsOf(applyWal(db, damaged).image) as unknown[]).length).toBe(10);
  });

  it('frames left over from an older generation of the log (other salts) are ignored', () => {
    insert(1, 200);
    // Checkpoint and restart the log: the next commit overwrites its start with new salts, the old
    // frames after it stay in the file.
    live.pragma('wal_checkpoint(RESTART)');
    live.prepare('DELETE FROM t WHERE id > 5').run();
    const { db, wal } = files();
    expect(rowsOf(applyWal(db, wal).image)).toEqual(live.prepare('SELECT id, v FROM t ORDER BY id').all());
  });

  it('no usable log (empty, too short, not a WAL) leaves the image as it was, in rollback mode', () => {
    insert(1, 3);
    live.pragma('wal_checkpoint(TRUNCATE)');
    const { db } = files();
    expect(db[18]).toBe(2);
    for (const wal of [new Uint8Array(0), new Uint8Array(10), new Uint8Array(4096).fill(7)]) {
      const replay = applyWal(db, wal);
      expect(replay.frames).toBe(0);
      expect(replay.image[18]).toBe(1);
      expect(rowsOf(replay.image)).toHaveLength(3);
    }
  });
});
