/**
 * Issue 16 item 2: a chat turn's turn.prepare paid two WAL flushes on OPFS — the user's message COMMIT, then the
 * run's — and read the settings four times. Now the message commits at synchronous=NORMAL and the run's COMMIT at
 * FULL syncs both: one flush, and a power cut right after the answer still finds the message (and the run) — also
 * when the build is stopped or fails (syncCommitted then). On sqlite-wasm's sahpool VFS over the in-memory OPFS
 * stand-in (store/test-opfs.ts): flushes counted by io-counters.ts, and a power cut simulated by putting every file
 * back to what it held at its last FileSystemSyncAccessHandle.flush, then opening the database again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { fixedClock, sequentialIds } from '../../domain/clock';
import { memoryLogger } from '../../domain/log';
import { createEngine } from '../engine';
import { memoryProjectFileStore } from '../files/project-file-store';
import { T0, expectOk } from '../testing';
import { installIoCounters, ioDelta, ioSnapshot } from '../store/io-counters';
import { migrations } from '../store/migrations';
import { PERSISTENT_JOURNAL_PRAGMAS } from '../store/open-wasm';
import { createSqliteWasmDriver } from '../store/sqlite-wasm-driver';
import type { SqlDriver } from '../store/driver';
import { installFakeOpfs, loadBrowserSqlite3 } from '../store/test-opfs';

type Db = { pointer: number; exec(sql: string): void; close(): void };
type Pool = { OpfsSAHPoolDb: new (name: string) => Db };
type File = { bytes: Uint8Array; size: number };
type Handle = { flush(): void; file: File };
let sqlite3: Sqlite3Static;
let pool: Pool;
let n = 0;
/** Each file as it was at its last flush: what a power cut leaves of it. */
const flushed = new Map<File, File>();

beforeAll(async () => {
  sqlite3 = await loadBrowserSqlite3();
  const opfs = installFakeOpfs();
  installIoCounters(opfs as never);
  const proto = opfs.FileSystemSyncAccessHandle.prototype as unknown as Handle;
  const { flush } = proto;
  proto.flush = function (this: Handle) {
    flushed.set(this.file, { bytes: this.file.bytes.slice(0, this.file.size), size: this.file.size });
    return flush.call(this);
  };
  pool = (await (sqlite3 as unknown as { installOpfsSAHPoolVfs(o: object): Promise<Pool> }).installOpfsSAHPoolVfs({ name: 'turn-flush-test', initialCapacity: 12 })) as Pool;
});

/** The engine as the DB worker opens it (WAL, synchronous=FULL) on the fake OPFS; `failRunInsert` makes the run's INSERT throw. */
function openEngine() {
  const name = `/turn-${++n}.sqlite3`;
  const db = new pool.OpfsSAHPoolDb(name);
  db.exec(PERSISTENT_JOURNAL_PRAGMAS);
  db.exec('PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;');
  const inner = createSqliteWasmDriver(db as never, { capi: sqlite3.capi, wasm: sqlite3.wasm });
  const seen = { settingsReads: 0, failRunInsert: false };
  const driver: SqlDriver = {
    kind: inner.kind,
    exec: (sql) => inner.exec(sql),
    run: (sql, p) => {
      if (seen.failRunInsert && sql.startsWith('INSERT INTO context_runs')) throw new Error('the run could not be stored');
      return inner.run(sql, p);
    },
    all: (sql, p) => {
      if (sql === 'SELECT key, value FROM settings') seen.settingsReads++;
      return inner.all(sql, p);
    },
    get: (sql, p) => inner.get(sql, p),
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
  };
  const clock = fixedClock(T0);
  const engine = createEngine(
    { driver, clock, ids: sequentialIds('t'), log: memoryLogger(), storage: { kind: 'opfs', reason: null }, startedAt: clock.now(), files: memoryProjectFileStore(clock) },
    migrations,
  );
  /** Power cut: the connection is gone without a checkpoint, every file is what it was at its last flush; opened again. */
  const powerCut = (): SqlDriver => {
    // Taken now: closing the connection may flush again, and the power is gone before it.
    const images = [...flushed];
    sqlite3.capi.sqlite3_db_config(db.pointer as never, sqlite3.capi.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, 0 as never);
    db.close();
    for (const [file, image] of images) {
      file.bytes = image.bytes.slice();
      file.size = image.size;
    }
    const again = new pool.OpfsSAHPoolDb(name);
    again.exec(PERSISTENT_JOURNAL_PRAGMAS);
    return createSqliteWasmDriver(again as never, { capi: sqlite3.capi, wasm: sqlite3.wasm });
  };
  return { engine, driver, seen, powerCut };
}

const synchronous = (driver: SqlDriver) => driver.get<{ synchronous: number }>('PRAGMA synchronous')?.synchronous;
const contents = (driver: SqlDriver) => driver.all<{ content: string }>("SELECT content FROM messages WHERE role = 'user' ORDER BY id").map((r) => r.content);

describe('turn.prepare: one flush per turn, and what it answered survives a power cut (issue 16 item 2)', () => {
  it('each turn of a conversation flushes once and reads the settings once; its message and run are durable when it answers', async () => {
    const { engine, driver, seen, powerCut } = openEngine();
    let sessionId: string | undefined;
    const flushes: number[] = [];
    const reads: number[] = [];
    let runId = '';
    for (let i = 0; i < 5; i++) {
      if (i > 0) expectOk(await engine.call('turn.finish', { runId, outcome: 'completed', text: `Reply ${i}`, toolMemoryIds: [] }, { opId: `flush-fin-${i}` }));
      const io = ioSnapshot()!;
      seen.settingsReads = 0;
      const p = expectOk(
        await engine.call('turn.prepare', { ...(sessionId ? { sessionId } : {}), content: `How do I fix processPayment, step ${i}?`, locale: 'en', requestId: `flush-req-${i}` }, { opId: `flush-op-${i}` }),
      );
      const d = ioDelta(io, ioSnapshot()!);
      expect(d.walPageWrites).toBeGreaterThan(0);
      flushes.push(d.flushes);
      reads.push(seen.settingsReads);
      expect(synchronous(driver)).toBe(2);
      if (!p.context.ok) throw new Error(p.context.error.code);
      runId = p.context.run.runId;
      sessionId = p.session.id;
    }
    // Before: 2 a turn (the message's COMMIT, the run's) and 4 settings reads.
    expect(flushes).toEqual([1, 1, 1, 1, 1]);
    expect(reads).toEqual([1, 1, 1, 1, 1]);
    const after = powerCut();
    expect(contents(after)).toEqual([0, 1, 2, 3, 4].map((i) => `How do I fix processPayment, step ${i}?`));
    expect(after.get<{ status: string }>('SELECT status FROM context_runs WHERE id = ?', [runId])).toEqual({ status: 'pending' });
  });

  it('a build stopped by its requestId answers with its message synced (one flush)', async () => {
    const { engine, driver, powerCut } = openEngine();
    const io = ioSnapshot()!;
    const pending = engine.call('turn.prepare', { content: 'Stop this one.', locale: 'en', requestId: 'flush-stop-1' }, { opId: 'flush-stop-op' });
    expectOk(await engine.call('context.cancel', { requestId: 'flush-stop-1' }));
    const p = expectOk(await pending);
    expect(p.context.ok ? 'built' : p.context.error.code).toBe('CANCELED');
    expect(ioDelta(io, ioSnapshot()!).flushes).toBe(1);
    expect(synchronous(driver)).toBe(2);
    expect(contents(powerCut())).toEqual(['Stop this one.']);
  });

  it('a run that cannot be stored fails the turn, and the message it stored is synced all the same', async () => {
    const { engine, driver, seen, powerCut } = openEngine();
    seen.failRunInsert = true;
    const res = await engine.call('turn.prepare', { content: 'This run will not be stored.', locale: 'en', requestId: 'flush-fail-1' }, { opId: 'flush-fail-op' });
    expect(res.ok ? 'ok' : res.error.code).toBe('INTERNAL');
    expect(synchronous(driver)).toBe(2);
    const after = powerCut();
    expect(contents(after)).toEqual(['This run will not be stored.']);
    expect(after.get('SELECT 1 FROM context_runs')).toBeUndefined();
  });
});
