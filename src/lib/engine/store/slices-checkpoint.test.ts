import { afterEach, describe, expect, it } from 'vitest';
import type { SqlDriver } from './driver';
import { installIoCounters, ioDelta, ioSnapshot, resetIoCountersForTests } from './io-counters';
import { runInSlices } from './slices';

/**
 * Issue 19: a slice's page budget counts the pages its own steps append to the WAL, not the pages a checkpoint
 * copies into the database file inside the COMMIT that crosses wal_autocheckpoint's mark. The files stand in for
 * the sahpool VFS's (a 4096-byte header naming the file and its SQLite open flags, then the file's bytes); only
 * counters, no clock.
 */
const HEADER = 4096;
const OPEN_MAIN_DB = 0x100;
const OPEN_WAL = 0x80000;
const PAGE = 8192;

function fakePool() {
  class FileSystemSyncAccessHandle {
    header = new Uint8Array(HEADER);
    write(buffer: Uint8Array, opts?: { at?: number }) {
      const at = opts?.at ?? 0;
      if (at < HEADER) this.header.set(buffer.subarray(0, HEADER - at), at);
      return buffer.byteLength;
    }
    read(buffer: Uint8Array, opts?: { at?: number }) {
      const at = opts?.at ?? 0;
      const part = this.header.subarray(at, at + buffer.byteLength);
      buffer.set(part);
      return part.length;
    }
    flush() {}
    truncate() {}
  }
  const scope = { FileSystemSyncAccessHandle };
  installIoCounters(scope as never, () => 0);
  /** Names a handle as the pool does (setAssociatedPath: the path, then the flags at 512, both in one write at 0). */
  const name = (h: FileSystemSyncAccessHandle, path: string, flags: number) => {
    const head = new Uint8Array(516);
    head.set(new TextEncoder().encode(path));
    new DataView(head.buffer).setUint32(512, flags);
    h.write(head, { at: 0 });
  };
  const file = (path: string, flags: number) => {
    const h = new FileSystemSyncAccessHandle();
    name(h, path, flags);
    return h;
  };
  const pages = (h: FileSystemSyncAccessHandle, n: number) => {
    for (let i = 0; i < n; i++) h.write(new Uint8Array(PAGE), { at: HEADER + i * PAGE });
  };
  return { name, file, pages };
}

afterEach(() => resetIoCountersForTests());

describe('the OPFS counters tell the WAL file from the database file', () => {
  it("counts a page into the WAL and a checkpoint's page into the database apart; the pool's header writes are no pages", () => {
    const pool = fakePool();
    const before = ioSnapshot()!;
    const db = pool.file('/engram.sqlite3', OPEN_MAIN_DB);
    const wal = pool.file('/engram.sqlite3-wal', OPEN_WAL);
    pool.pages(wal, 5);
    pool.pages(db, 3);
    expect(ioDelta(before, ioSnapshot()!)).toMatchObject({ writes: 10, pageWrites: 8, walPageWrites: 5, dbPageWrites: 3 });
  });

  it('a handle the pool names again (a freed WAL handle reused for the database) is counted as what it holds now', () => {
    const pool = fakePool();
    const h = pool.file('/engram.sqlite3-wal', OPEN_WAL);
    pool.pages(h, 2);
    pool.name(h, '/engram.sqlite3', OPEN_MAIN_DB);
    pool.pages(h, 4);
    expect(ioSnapshot()).toMatchObject({ pageWrites: 6, walPageWrites: 2, dbPageWrites: 4 });
  });
});

describe("a checkpoint inside a slice's COMMIT does not shrink the next slices (issue 19)", () => {
  // 96 steps of 8 pages each under a 64-page budget; the time budget (8 ms of an injected clock, 1 ms a step)
  // ends a slice after 8 steps (the first takes one: it shows what a step writes). Each COMMIT appends the slice's pages to the WAL; the COMMIT that takes the
  // WAL to 200 frames or more also copies them into the database file (a checkpoint, as wal_autocheckpoint does).
  it('after a first slice of one step shows what a step writes, the slices keep 8 steps across the COMMITs that checkpoint', async () => {
    let clock = 0;
    const pool = fakePool();
    const db = pool.file('/engram.sqlite3', OPEN_MAIN_DB);
    const wal = pool.file('/engram.sqlite3-wal', OPEN_WAL);
    let pending = 0;
    let walFrames = 0;
    const checkpointed: boolean[] = [];
    const driver = {
      transaction: <T>(fn: () => T): T => {
        const out = fn();
        pool.pages(wal, pending);
        walFrames += pending;
        pending = 0;
        const ckpt = walFrames >= 200;
        if (ckpt) {
          pool.pages(db, walFrames);
          walFrames = 0;
        }
        checkpointed.push(ckpt);
        return out;
      },
    } as unknown as SqlDriver;
    let left = 96;
    const steps: number[] = [];
    const run = (pagesWritten?: () => number | null) =>
      runInSlices({
        driver,
        budgetMs: 8,
        now: () => clock,
        pageBudget: 64,
        ...(pagesWritten ? { pagesWritten } : {}),
        step: () => ((pending += 8), (clock += 1), --left > 0),
        onSlice: (_ms, t) => steps.push(t.steps),
      });
    await run();
    expect(checkpointed.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    // One step (it shows what a step writes), then slices of 8 steps: none shrinks after the COMMITs that checkpointed.
    expect(steps).toEqual([1, ...Array<number>(11).fill(8), 7]);

    // The same pass counting every page written (the checkpoint's copies too), as before: after each checkpoint
    // the next slices shrink to a step or two.
    left = 96;
    steps.length = 0;
    checkpointed.length = 0;
    walFrames = 0;
    await run(() => ioSnapshot()!.pageWrites);
    const after = checkpointed.flatMap((c, i) => (c ? [steps[i + 1]] : [])).filter((n) => n !== undefined);
    expect(after.length).toBeGreaterThan(0);
    expect(Math.max(...(after as number[]))).toBeLessThan(8);
    expect(steps.length).toBeGreaterThan(13);
  });
});
