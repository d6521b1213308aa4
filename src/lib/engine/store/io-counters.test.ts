import { afterEach, describe, expect, it } from 'vitest';
import { countedTransaction, installIoCounters, ioDelta, ioSnapshot, resetIoCountersForTests, slowTransactionsSince, SLOW_TRANSACTION_MS, walFrameAt, walFramesMost, walFramesNow } from './io-counters';
import { checkpointBetweenSlices } from './checkpoint-slices';
import { runInSlices } from './slices';
import type { SqlDriver } from './driver';

/** A stand-in for FileSystemSyncAccessHandle; each call moves the injected clock by `cost` ms. */
function fakeScope(clock: { t: number }, cost = { write: 1, flush: 5, truncate: 2 }) {
  class FileSystemSyncAccessHandle {
    write(buffer: ArrayBufferView) {
      clock.t += cost.write;
      return buffer.byteLength;
    }
    flush() {
      clock.t += cost.flush;
    }
    truncate() {
      clock.t += cost.truncate;
      throw new Error('NoModificationAllowedError');
    }
  }
  return { FileSystemSyncAccessHandle } as unknown as { FileSystemSyncAccessHandle: new () => { write(b: Uint8Array): number; flush(): void; truncate(n: number): void } };
}

afterEach(() => resetIoCountersForTests());

describe('OPFS I/O counters (issue 19: what a slow COMMIT is made of)', () => {
  it('counts writes (bytes), flushes and truncates with their time, and passes results and errors through', () => {
    const clock = { t: 0 };
    const scope = fakeScope(clock);
    expect(ioSnapshot()).toBeNull();
    expect(installIoCounters(scope as never, () => clock.t)).toBe(true);
    const h = new scope.FileSystemSyncAccessHandle();
    const before = ioSnapshot()!;
    expect(h.write(new Uint8Array(8192))).toBe(8192);
    h.write(new Uint8Array(100));
    h.flush();
    expect(() => h.truncate(0)).toThrow('NoModificationAllowedError');
    // A handle with no sahpool header to read: its page is in neither the WAL's nor the database file's split.
    expect(ioDelta(before, ioSnapshot()!)).toEqual({ writes: 2, pageWrites: 1, walPageWrites: 0, dbPageWrites: 0, writeBytes: 8292, writeMs: 2, flushes: 1, flushMs: 5, truncates: 1, truncateMs: 2 });
    // Installing twice does not count twice.
    expect(installIoCounters(scope as never, () => clock.t)).toBe(true);
    const b2 = ioSnapshot()!;
    h.flush();
    expect(ioDelta(b2, ioSnapshot()!).flushes).toBe(1);
  });

  it('without counters (Node, memory) a transaction runs as it was and nothing is kept', () => {
    expect(countedTransaction(() => 7)).toBe(7);
    expect(slowTransactionsSince(0)).toEqual([]);
  });

  it('keeps a slow transaction with its I/O, not a fast one', () => {
    const clock = { t: 0 };
    const scope = fakeScope(clock, { write: 1, flush: SLOW_TRANSACTION_MS, truncate: 0 });
    installIoCounters(scope as never, () => clock.t);
    const h = new scope.FileSystemSyncAccessHandle();
    countedTransaction(() => h.write(new Uint8Array(10)), () => clock.t);
    countedTransaction(() => (h.write(new Uint8Array(10)), h.flush()), () => clock.t);
    const slow = slowTransactionsSince(0);
    expect(slow).toHaveLength(1);
    expect(slow[0]!.io).toMatchObject({ writes: 1, flushes: 1 });
  });

  it("splits each slice's I/O into the steps' and the COMMIT's", async () => {
    const clock = { t: 0 };
    const scope = fakeScope(clock);
    installIoCounters(scope as never, () => clock.t);
    const h = new scope.FileSystemSyncAccessHandle();
    // A driver whose COMMIT writes 3 pages and flushes once (what a WAL commit does on the sahpool VFS).
    const driver = {
      transaction: <T>(fn: () => T): T => {
        const out = fn();
        for (let i = 0; i < 3; i++) h.write(new Uint8Array(8192));
        h.flush();
        return out;
      },
    } as unknown as SqlDriver;
    let left = 4;
    const timings: { stepsIo?: unknown; commitIo?: unknown }[] = [];
    await runInSlices({ driver, budgetMs: 100, now: () => clock.t, step: () => (h.write(new Uint8Array(8192)), --left > 0), onSlice: (_ms, t) => timings.push(t) });
    expect(timings).toHaveLength(1);
    expect(timings[0]!.stepsIo).toMatchObject({ writes: 4, writeBytes: 4 * 8192, flushes: 0 });
    expect(timings[0]!.commitIo).toMatchObject({ writes: 3, flushes: 1 });
  });
});

describe('slow transactions are told as a clean-up slice or a foreground write', () => {
  it("a slice's transaction is marked as the slice's, a write outside a slice as the foreground's", async () => {
    const clock = { t: 0 };
    const scope = fakeScope(clock, { write: SLOW_TRANSACTION_MS, flush: 0, truncate: 0 });
    installIoCounters(scope as never, () => clock.t);
    const h = new scope.FileSystemSyncAccessHandle();
    const driver = { transaction: <T>(fn: () => T): T => countedTransaction(fn, () => clock.t) } as unknown as SqlDriver;
    await runInSlices({ driver, budgetMs: 1, now: () => clock.t, step: () => (h.write(new Uint8Array(8192)), false) });
    driver.transaction(() => h.write(new Uint8Array(8192)));
    expect(slowTransactionsSince(0).map((t) => t.slice)).toEqual([true, false]);
  });
});

describe("a sliced job's checkpoints are listed with the slow transactions (issue 19: what the longest waits sat behind)", () => {
  it('a slow checkpoint between slices is kept, marked as a checkpoint of the slices; a fast one is not', async () => {
    const clock = { t: 0 };
    const scope = fakeScope(clock, { write: 1, flush: SLOW_TRANSACTION_MS, truncate: 0 });
    installIoCounters(scope as never, () => clock.t);
    const h = new scope.FileSystemSyncAccessHandle();
    let flushes = 0;
    // Each slice's COMMIT appends 8 pages; the checkpoint copies them into the database file, flushing twice from
    // the second on (the first is fast: nothing to flush).
    const base = {
      transaction: <T>(fn: () => T): T => countedTransaction(() => {
        const out = fn();
        for (let i = 0; i < 8; i++) h.write(new Uint8Array(8192));
        return out;
      }, () => clock.t),
      get: (sql: string) => {
        expect(sql).toContain('wal_checkpoint');
        if (flushes++ > 0) (h.flush(), h.flush());
        return { busy: 0, log: 8, checkpointed: 8 };
      },
    } as unknown as SqlDriver;
    const pages = { n: 0 };
    const ck = checkpointBetweenSlices(base, { everyPages: 8, pagesWritten: () => (pages.n += 8), now: () => clock.t });
    let left = 3;
    await runInSlices({ driver: ck.driver, budgetMs: 1, now: () => clock.t, step: () => ((clock.t += 2), --left > 0) });
    expect(ck.checkpoints()).toHaveLength(2);
    const slow = slowTransactionsSince(0);
    expect(slow.filter((t) => t.checkpoint)).toEqual([expect.objectContaining({ slice: true, checkpoint: true, ms: 2 * SLOW_TRANSACTION_MS, io: expect.objectContaining({ flushes: 2, writes: 0 }) })]);
  });
});

/** A sahpool file's handle: its header names it (SQLite's open flags at byte 512), the rest counts like fakeScope's. */
function poolScope(flagsOf: Map<object, number>) {
  class FileSystemSyncAccessHandle {
    write(buffer: ArrayBufferView) {
      return buffer.byteLength;
    }
    read(buffer: Uint8Array) {
      new DataView(buffer.buffer).setUint32(512, flagsOf.get(this) ?? 0);
      return buffer.length;
    }
    flush() {}
    truncate() {}
  }
  return { FileSystemSyncAccessHandle } as unknown as { FileSystemSyncAccessHandle: new () => { write(b: Uint8Array, o?: { at?: number }): number } };
}

describe("the WAL's frames, read off the OPFS writes' offsets (issue 19: sqlite-wasm has no wal_hook)", () => {
  const HEADER = 4096;
  /** Where SQLite writes frame k's page (8 KiB pages) in the pool's file: past the pool header, the WAL header and k−1 frames. */
  const pageAt = (k: number) => HEADER + 32 + (k - 1) * (8192 + 24) + 24;

  it('a page at a frame\'s offset is that frame; a frame header or a byte elsewhere is none', () => {
    expect(walFrameAt(32 + 24, 8192)).toBe(1);
    expect(walFrameAt(32 + 3 * (8192 + 24) + 24, 8192)).toBe(4);
    expect(walFrameAt(32 + 3 * (4096 + 24) + 24, 4096)).toBe(4);
    expect(walFrameAt(32, 8192)).toBeNull();
    expect(walFrameAt(100, 8192)).toBeNull();
  });

  it("follows the WAL's last frame, starts again with it, and keeps the most it held; the database file's pages are no frames", () => {
    const flags = new Map<object, number>();
    const scope = poolScope(flags);
    expect(walFramesNow()).toBeNull();
    installIoCounters(scope as never);
    expect(walFramesNow()).toBe(0);
    const wal = new scope.FileSystemSyncAccessHandle();
    const main = new scope.FileSystemSyncAccessHandle();
    flags.set(wal, 0x80000);
    flags.set(main, 0x100);
    for (let k = 1; k <= 70; k++) {
      wal.write(new Uint8Array(24), { at: pageAt(k) - 24 });
      wal.write(new Uint8Array(8192), { at: pageAt(k) });
    }
    expect(walFramesNow()).toBe(70);
    // A checkpoint copies pages into the database file: the WAL's count stays.
    main.write(new Uint8Array(8192), { at: HEADER + 8192 * 5 });
    expect(walFramesNow()).toBe(70);
    // The next transaction begins the WAL again: its header, then frame 1.
    wal.write(new Uint8Array(32), { at: HEADER });
    wal.write(new Uint8Array(8192), { at: pageAt(1) });
    expect(walFramesNow()).toBe(1);
    expect(walFramesMost()).toBe(70);
    expect(ioSnapshot()).toMatchObject({ walPageWrites: 71, dbPageWrites: 1 });
  });
});
