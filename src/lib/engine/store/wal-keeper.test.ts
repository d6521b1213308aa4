import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';
import { PERSISTENT_JOURNAL_PRAGMAS, WAL_KEEPER_BACKSTOP_FRAMES, WAL_KEEPER_PRAGMAS } from './open-wasm';
import { keepWalSmall, WAL_HARD_FRAMES, WAL_MUST_FRAMES, WAL_SOON_FRAMES, WAL_STARVED_WRITES, type WalKeeper } from './wal-keeper';
import { recordTimeline, timelineBetween } from './worker-timeline';

/**
 * Issue 19: with the connection's autocheckpoint moved out to a far backstop, the keeper alone bounds the WAL. SQLite writes real files
 * (better-sqlite3, 8 KiB pages as in the browser). The keeper is told the WAL's frames by reading the WAL file the
 * way SQLite does — the frames from its start whose salts match its header's (a WAL begun again gets new salts) —
 * the browser reads them off the OPFS writes' offsets instead (io-counters.ts). What the tests check is measured
 * apart from that: the WAL file's size (it is never shrunk, so it says the most frames it ever held), the main
 * file's size (only a checkpoint writes there), and the rows a fresh connection reads back.
 */
const PAGE = 8192;
const FRAME = PAGE + 24;
let dir: string;
let path: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-keeper-'));
  path = join(dir, 'db.sqlite3');
  db = new Database(path);
  db.pragma(`page_size = ${PAGE}`);
  db.exec(PERSISTENT_JOURNAL_PRAGMAS);
  db.exec(WAL_KEEPER_PRAGMAS);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The WAL's valid frames and a mark that changes with every frame written (its salt and frame count). */
function walFile(): { frames: number; mark: number } {
  const wal = `${path}-wal`;
  if (!existsSync(wal)) return { frames: 0, mark: 0 };
  const bytes = readFileSync(wal);
  if (bytes.length < 32) return { frames: 0, mark: 0 };
  const salt1 = bytes.readUInt32BE(16);
  const salt2 = bytes.readUInt32BE(20);
  let frames = 0;
  for (let at = 32; at + FRAME <= bytes.length; at += FRAME) {
    if (bytes.readUInt32BE(at + 8) !== salt1 || bytes.readUInt32BE(at + 12) !== salt2) break;
    frames++;
  }
  return { frames, mark: salt1 * 100_000 + frames };
}
const walBytesFrames = () => Math.floor((statSync(`${path}-wal`).size - 32) / FRAME);

function keeper(tasks: (() => void)[] | null): WalKeeper {
  return keepWalSmall(createBetterSqlite3Driver(db), {
    framesNow: () => walFile().frames,
    pagesWritten: () => walFile().mark,
    // null: the scheduled task never gets its turn (calls back to back).
    schedule: (run) => tasks?.push(run),
  });
}

/** `n` one-row transactions of a 4 KiB row (a page or two each); `between` runs after each call has answered. */
function write(k: WalKeeper, n: number, between: () => void = () => undefined): { mostFrames: number; dbGrewInCommit: number } {
  let mostFrames = 0;
  let dbGrewInCommit = 0;
  for (let i = 0; i < n; i++) {
    const before = statSync(path).size;
    k.driver.transaction(() => k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(4096).fill(i % 251)]));
    if (statSync(path).size !== before) dbGrewInCommit++;
    mostFrames = Math.max(mostFrames, walBytesFrames());
    between();
  }
  return { mostFrames, dbGrewInCommit };
}

/** One transaction of `rows` 4 KiB rows (~`rows` pages: what an FTS5 automerge writes into a one-row COMMIT). */
function bigCommit(k: WalKeeper, rows: number): void {
  k.driver.transaction(() => {
    for (let i = 0; i < rows; i++) k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(4096).fill(i % 251)]);
  });
}

function rowsAfterReopen(file = path): number {
  const again = new Database(file);
  try {
    expect(again.pragma('integrity_check', { simple: true })).toBe('ok');
    return (again.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  } finally {
    again.close();
  }
}

describe('the WAL keeper (issue 19: checkpoints between calls, none inside a COMMIT)', () => {
  it('with its task run between calls, the WAL stays near the soon mark, no COMMIT copies pages, nothing is lost', () => {
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_KEEPER_BACKSTOP_FRAMES);
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    expect(k.active).toBe(true);
    const run = write(k, 1_000, () => tasks.splice(0).forEach((t) => t()));
    // One transaction's frames (a row and its b-tree pages) may come on top of the mark before the task runs.
    expect(run.mostFrames).toBeGreaterThanOrEqual(WAL_SOON_FRAMES);
    expect(run.mostFrames).toBeLessThanOrEqual(WAL_SOON_FRAMES + 4);
    // The main file grows only in the keeper's own task, never in a write's COMMIT.
    expect(run.dbGrewInCommit).toBe(0);
    const cps = k.checkpoints();
    expect(cps.length).toBeGreaterThan(20);
    expect(cps.every((c) => c.when === 'soon' && c.checkpointed === c.log && c.log >= WAL_SOON_FRAMES)).toBe(true);
    db.close();
    expect(rowsAfterReopen()).toBe(1_000);
  });

  it('when its task never gets a turn, it checkpoints at the must mark itself: the WAL stays bounded', () => {
    const k = keeper(null);
    const run = write(k, 1_000);
    expect(run.mostFrames).toBeGreaterThanOrEqual(WAL_MUST_FRAMES);
    expect(run.mostFrames).toBeLessThanOrEqual(WAL_MUST_FRAMES + 4);
    expect(k.checkpoints().length).toBeGreaterThan(5);
    expect(k.checkpoints().every((c) => c.when === 'must')).toBe(true);
    db.close();
    expect(rowsAfterReopen()).toBe(1_000);
  });

  it('one large COMMIT past the must mark answers first: its checkpoint gets a task, and at once only once that task is starved', () => {
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    const before = statSync(path).size;
    // ~200 pages in one transaction (what an FTS5 automerge writes into a one-row COMMIT), from a WAL near empty.
    bigCommit(k, 200);
    expect(walFile().frames).toBeGreaterThanOrEqual(WAL_MUST_FRAMES);
    expect(k.checkpoints()).toEqual([]);
    expect(statSync(path).size).toBe(before);
    expect(tasks.length).toBe(1);
    // The task has no turn and other calls write: the calls that can be queued ahead of it answer first, then the
    // keeper counts it starved and checkpoints at once.
    for (let i = 1; i < WAL_STARVED_WRITES; i++) k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(10)]);
    expect(k.checkpoints()).toEqual([]);
    k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(10)]);
    expect(k.checkpoints().map((c) => c.when)).toEqual(['must']);
    tasks.splice(0).forEach((t) => t());
    expect(k.checkpoints().map((c) => c.when)).toEqual(['must']);
    db.close();
    expect(rowsAfterReopen()).toBe(200 + WAL_STARVED_WRITES);
  });

  it('a large COMMIT that lands on a WAL whose task was just asked for answers before any checkpoint; the task then copies it all', () => {
    // The lifecycle benchmark's worst wait (issue 19): a clean-up slice took the WAL past the soon mark and asked for
    // the task; the episode.record already queued ahead of that task committed an automerge (220 pages) on top, and
    // the keeper checkpointed ~295 frames at once inside that call — its answer and the probe behind it waited for both.
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    // Small writes until one asks for the task (the clean-up slice that took the WAL past the soon mark).
    let rows = 0;
    while (tasks.length === 0) {
      write(k, 1);
      rows++;
    }
    const soonWal = walFile().frames;
    expect(soonWal).toBeGreaterThanOrEqual(WAL_SOON_FRAMES);
    const before = statSync(path).size;
    bigCommit(k, 200);
    // The call answers with nothing checkpointed: the main file untouched, the WAL past the must mark, under the hard one.
    const big = walFile().frames;
    expect(big).toBeGreaterThanOrEqual(WAL_MUST_FRAMES);
    expect(big).toBeLessThan(WAL_HARD_FRAMES);
    expect(k.checkpoints()).toEqual([]);
    expect(statSync(path).size).toBe(before);
    // A probe's read queued behind it answers with nothing checkpointed either.
    expect(k.driver.get<{ n: number }>('SELECT count(*) AS n FROM t')?.n).toBe(rows + 200);
    expect(k.checkpoints()).toEqual([]);
    // Its turn comes: it copies the whole WAL.
    tasks.splice(0).forEach((t) => t());
    expect(k.checkpoints()).toEqual([{ when: 'soon', log: big, checkpointed: big }]);
    expect(statSync(path).size).toBeGreaterThan(before);
    db.close();
    expect(rowsAfterReopen()).toBe(rows + 200);
  });

  it('past the hard mark the keeper checkpoints at once, starved or not: the WAL stays under it plus the transactions on top', () => {
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    bigCommit(k, 250);
    expect(tasks.length).toBe(1);
    expect(k.checkpoints()).toEqual([]);
    bigCommit(k, 250);
    const most = walBytesFrames();
    expect(most).toBeGreaterThanOrEqual(WAL_HARD_FRAMES);
    expect(k.checkpoints().map((c) => c.when)).toEqual(['must']);
    expect(most).toBeLessThan(WAL_HARD_FRAMES + 2 * 260);
  });

  it('notes each checkpoint on the worker timeline when a benchmark keeps it (a checkpoint is no transaction: nothing else shows it)', () => {
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    recordTimeline(true);
    try {
      const t0 = performance.timeOrigin + performance.now();
      write(k, 200, () => tasks.splice(0).forEach((t) => t()));
      const noted = timelineBetween(t0, performance.timeOrigin + performance.now()).filter((e) => e.kind === 'keeper');
      expect(noted.length).toBe(k.checkpoints().length);
      expect(noted.length).toBeGreaterThan(2);
      expect(noted.every((e) => e.method === 'soon' && (e.frames ?? 0) >= WAL_SOON_FRAMES && e.ms >= 0)).toBe(true);
    } finally {
      recordTimeline(false);
    }
  });

  it("without the keeper the same connection's WAL grows to SQLite's far backstop mark (what the keeper bounds)", () => {
    const k = keepWalSmall(createBetterSqlite3Driver(db), { framesNow: () => null, pagesWritten: () => null });
    expect(k.active).toBe(false);
    expect(write(k, 1_000).mostFrames).toBeGreaterThan(4 * WAL_MUST_FRAMES);
    expect(k.checkpoints()).toEqual([]);
  });

  it('every committed write is in a copy of the files taken mid-run (a crash: the WAL is replayed at open)', () => {
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    write(k, 300, () => tasks.splice(0).forEach((t) => t()));
    // One more, answered, its checkpoint still only scheduled: the copy is taken before it runs.
    k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(10)]);
    const crash = join(dir, 'crash.sqlite3');
    copyFileSync(path, crash);
    copyFileSync(`${path}-wal`, `${crash}-wal`);
    expect(rowsAfterReopen(crash)).toBe(301);
  });

  it('a scheduled checkpoint finds the WAL already small (a sliced job checkpointed it) and does nothing', () => {
    const tasks: (() => void)[] = [];
    const k = keeper(tasks);
    write(k, 40);
    expect(tasks.length).toBe(1);
    // Someone else copies the whole WAL; the next write starts it again from its beginning.
    db.pragma('wal_checkpoint(PASSIVE)');
    k.driver.run('INSERT INTO t (v) VALUES (?)', [new Uint8Array(10)]);
    expect(walFile().frames).toBeLessThan(WAL_SOON_FRAMES);
    tasks.splice(0).forEach((t) => t());
    expect(k.checkpoints()).toEqual([]);
  });

  it("a statement's error passes through unchanged, and nothing is checkpointed for it", () => {
    const k = keeper([]);
    expect(() => k.driver.run('INSERT INTO nope (v) VALUES (1)')).toThrow(/no such table: nope/);
    expect(k.checkpoints()).toEqual([]);
  });
});
