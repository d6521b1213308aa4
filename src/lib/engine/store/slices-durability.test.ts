import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import { ftsDigest } from '../backup/testing';
import { fillEveryTable } from '../backup/test-fill';
import { T0 } from '../testing';
import { reindexInSlices } from './fts-reindex-slices';
import { installIoCounters, ioDelta, ioSnapshot, walFramesNow, type IoCounts } from './io-counters';
import { migrations } from './migrations';
import { PERSISTENT_JOURNAL_PRAGMAS } from './open-wasm';
import { runInSlices, type SliceTiming } from './slices';
import { createSqliteWasmDriver } from './sqlite-wasm-driver';
import type { SqlDriver } from './driver';
import { installFakeOpfs, loadBrowserSqlite3 } from './test-opfs';

/**
 * Issue 16 item 5: a resumable job's slices commit at synchronous=NORMAL — no flush of the WAL at their COMMIT — and
 * the run ends with one COMMIT at FULL before it returns; a person's write is at FULL throughout. Counted where the
 * browser pays it: sqlite-wasm's sahpool VFS on (a stand-in for) OPFS, its FileSystemSyncAccessHandle.flush calls
 * counted by the I/O counters (io-counters.ts).
 */
type Pool = { OpfsSAHPoolDb: new (name: string) => { pointer: number; exec(sql: string): void; close(): void } };
let sqlite3: Sqlite3Static;
let pool: Pool;
let n = 0;
const open: { close(): void }[] = [];

beforeAll(async () => {
  sqlite3 = await loadBrowserSqlite3();
  installIoCounters(installFakeOpfs() as never);
  pool = (await (sqlite3 as unknown as { installOpfsSAHPoolVfs(o: object): Promise<Pool> }).installOpfsSAHPoolVfs({ name: 'durability-test', initialCapacity: 12 })) as Pool;
});

afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** A database as the browser opens it (WAL, exclusive locking, synchronous=FULL), on the fake OPFS. */
function openDb(name = `/db-${++n}.sqlite3`) {
  const db = new pool.OpfsSAHPoolDb(name);
  open.push(db);
  db.exec(PERSISTENT_JOURNAL_PRAGMAS);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;');
  return { db, name, driver: createSqliteWasmDriver(db as never, { capi: sqlite3.capi, wasm: sqlite3.wasm }) };
}

const synchronous = (driver: SqlDriver) => driver.get<{ synchronous: number }>('PRAGMA synchronous')?.synchronous;
const FULL = 2;
const NORMAL = 1;

/** A job writing `total` rows, `perStep` a step, its cursor in `job` in the same transaction (what makes it resumable). */
function job(driver: SqlDriver, total: number, perStep = 4) {
  driver.exec('CREATE TABLE IF NOT EXISTS job (id INTEGER PRIMARY KEY CHECK (id = 1), done INTEGER NOT NULL); CREATE TABLE IF NOT EXISTS out (n INTEGER PRIMARY KEY, v TEXT)');
  driver.run('INSERT OR IGNORE INTO job (id, done) VALUES (1, 0)');
  return () => {
    const done = driver.get<{ done: number }>('SELECT done FROM job')!.done;
    const next = Math.min(total, done + perStep);
    for (let i = done; i < next; i++) driver.run('INSERT INTO out (n, v) VALUES (?, ?)', [i, 'x'.repeat(600)]);
    driver.run('UPDATE job SET done = ?', [next]);
    return next < total;
  };
}

async function runJob(driver: SqlDriver, step: () => boolean, resumable: boolean) {
  const slices: SliceTiming[] = [];
  const levels: (number | undefined)[] = [];
  const inside: (number | undefined)[] = [];
  let clock = 0;
  const before = ioSnapshot()!;
  await runInSlices({
    driver,
    resumable,
    budgetMs: 3,
    now: () => ++clock,
    step: () => (inside.push(synchronous(driver)), step()),
    onSlice: (_ms, t) => (slices.push(t), levels.push(synchronous(driver))),
  });
  return { slices, levels, inside, all: ioDelta(before, ioSnapshot()!) };
}

const flushesOf = (io: IoCounts | undefined) => io?.flushes ?? NaN;

describe('resumable slices commit without a flush; the end of the run and a person’s write flush (issue 16 item 5)', () => {
  it('no slice’s COMMIT flushes the WAL, the run’s end does, and synchronous is FULL again after every slice', async () => {
    const { driver } = openDb();
    const r = await runJob(driver, job(driver, 40), true);
    expect(r.slices.length).toBeGreaterThan(3);
    // Each slice appended its pages to the WAL and flushed nothing.
    for (const t of r.slices) {
      expect(t.commitIo!.walPageWrites).toBeGreaterThan(0);
      expect(flushesOf(t.commitIo)).toBe(0);
    }
    // The steps ran at NORMAL; between slices, and after the run, the connection is at FULL.
    expect(new Set(r.inside)).toEqual(new Set([NORMAL]));
    expect(new Set(r.levels)).toEqual(new Set([FULL]));
    expect(synchronous(driver)).toBe(FULL);
    // The run's end: one COMMIT at FULL, its flush (and only that: no slice flushed).
    expect(r.all.flushes).toBeGreaterThanOrEqual(1);
    expect(r.all.flushes).toBe(r.slices.reduce((s, t) => s + flushesOf(t.commitIo) + flushesOf(t.stepsIo), 0) + r.all.flushes);
    expect(driver.get('SELECT done FROM job')).toEqual({ done: 40 });
  });

  it('the same job, not resumable, flushes at every slice’s COMMIT (what the browser paid before)', async () => {
    const { driver } = openDb();
    const r = await runJob(driver, job(driver, 40), false);
    expect(r.slices.length).toBeGreaterThan(3);
    for (const t of r.slices) expect(flushesOf(t.commitIo)).toBeGreaterThanOrEqual(1);
    expect(new Set(r.inside)).toEqual(new Set([FULL]));
  });

  it('a person’s write between two slices of a resumable job commits at FULL, with its flush', async () => {
    const { driver } = openDb();
    driver.exec('CREATE TABLE note (v TEXT)');
    const step = job(driver, 40);
    const writes: IoCounts[] = [];
    let clock = 0;
    const running = runInSlices({ driver, resumable: true, budgetMs: 3, now: () => ++clock, step });
    // Between slices (runInSlices yields a macrotask after each): what the engine runs for a call.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 0));
      const before = ioSnapshot()!;
      driver.transaction(() => driver.run('INSERT INTO note (v) VALUES (?)', ['saved']));
      writes.push(ioDelta(before, ioSnapshot()!));
    }
    await running;
    for (const w of writes) expect(w.flushes).toBeGreaterThanOrEqual(1);
  });

  it('a slice that throws leaves synchronous at FULL, and what it wrote is rolled back', async () => {
    const { driver } = openDb();
    const step = job(driver, 40);
    let steps = 0;
    let clock = 0;
    const run = runInSlices({
      driver,
      resumable: true,
      budgetMs: 3,
      now: () => ++clock,
      step: () => {
        if (++steps === 5) throw new Error('the disk is full');
        return step();
      },
    });
    await expect(run).rejects.toThrow('the disk is full');
    expect(synchronous(driver)).toBe(FULL);
    // Four steps committed (two slices of two: a 3 ms budget on a clock moving 1 ms a read); the fifth's slice rolled back.
    const done = driver.get<{ done: number }>('SELECT done FROM job')!.done;
    expect(driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM out')!.n).toBe(done);
    // A person's write after it: at FULL, flushed.
    driver.exec('CREATE TABLE note (v TEXT)');
    const before = ioSnapshot()!;
    driver.transaction(() => driver.run('INSERT INTO note (v) VALUES (?)', ['saved']));
    expect(ioDelta(before, ioSnapshot()!).flushes).toBeGreaterThanOrEqual(1);
  });
});

describe('the reindex, cut short after NORMAL slices and reopened without a checkpoint, ends as a whole one does (issue 16 item 5)', () => {
  async function filled() {
    const { db, name, driver } = openDb();
    const clock = fixedClock(T0);
    const log = memoryLogger();
    const files = memoryProjectFileStore(clock);
    const engine = createEngine({ driver, clock, ids: sequentialIds('t'), log, storage: { kind: 'opfs', reason: null }, startedAt: clock.now(), files }, migrations);
    await fillEveryTable({ engine, clock, log, driver, files } as never);
    return { db, name, driver };
  }

  it('its slices flush nothing at their COMMIT; resumed after a crash, the index is the one the repositories wrote', async () => {
    const { db, name, driver } = await filled();
    const before = ftsDigest(driver);
    // Cut short after three slices (a slice's COMMIT is where it may be lost; the onSlice throw comes after it).
    let seen = 0;
    const rows: SliceTiming[] = [];
    let clock = 0;
    await expect(
      reindexInSlices(driver, {
        budgetMs: 6,
        now: () => ++clock,
        pageBudget: 0,
        checkpointEveryPages: 1e9,
        onSlice: (_ms, t) => {
          rows.push(t);
          if (++seen === 3) throw new Error('the tab closed');
        },
      }),
    ).rejects.toThrow('the tab closed');
    for (const t of rows) expect(flushesOf(t.commitIo)).toBe(0);
    expect(driver.get('SELECT key FROM meta WHERE key = ?', ['fts.reindex_progress'])).toBeDefined();
    expect(walFramesNow()).toBeGreaterThan(0);
    // A crash: the connection goes without checkpointing; the next one reads the WAL back.
    sqlite3.capi.sqlite3_db_config(db.pointer as never, sqlite3.capi.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, 0 as never);
    open.splice(open.indexOf(db), 1);
    db.close();
    const again = openDb(name);
    expect(again.driver.get('SELECT key FROM meta WHERE key = ?', ['fts.reindex_progress'])).toBeDefined();
    const rest = await reindexInSlices(again.driver, { budgetMs: 6, now: () => ++clock, pageBudget: 0 });
    expect(rest.messages + rest.summaries + rest.memories + rest.episodes).toBeGreaterThan(0);
    expect(again.driver.get('SELECT key FROM meta WHERE key = ?', ['fts.reindex_progress'])).toBeUndefined();
    expect(ftsDigest(again.driver)).toEqual(before);
    expect(synchronous(again.driver)).toBe(FULL);
  });
});
