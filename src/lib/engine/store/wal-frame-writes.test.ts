import { afterEach, describe, expect, it } from 'vitest';
import { installFrameWriteMerging, WAL_FRAME_HEADER_BYTES } from './wal-frame-writes';
import { installIoCounters, ioDelta, ioSnapshot, resetIoCountersForTests } from './io-counters';

type Call = { op: 'write'; at: number; bytes: number } | { op: 'read' | 'flush' | 'truncate' | 'getSize' | 'close' };

/** A stand-in for FileSystemSyncAccessHandle over bytes in memory, logging every call it gets. */
function fakeScope(opts: { shortBy?: number; answer?: number } = {}) {
  const calls: Call[] = [];
  class FileSystemSyncAccessHandle {
    data = new Uint8Array(0);
    write(buffer: Uint8Array, o?: { at?: number }) {
      const at = o?.at ?? 0;
      calls.push({ op: 'write', at, bytes: buffer.byteLength });
      if (opts.answer !== undefined) return opts.answer;
      const n = buffer.byteLength - (opts.shortBy ?? 0);
      if (at + n > this.data.byteLength) {
        const grown = new Uint8Array(at + n);
        grown.set(this.data);
        this.data = grown;
      }
      this.data.set(buffer.subarray(0, n), at);
      return n;
    }
    read(buffer: Uint8Array, o?: { at?: number }) {
      calls.push({ op: 'read' });
      const part = this.data.subarray(o?.at ?? 0, (o?.at ?? 0) + buffer.byteLength);
      buffer.set(part);
      return part.byteLength;
    }
    flush() {
      calls.push({ op: 'flush' });
    }
    truncate(size: number) {
      calls.push({ op: 'truncate' });
      this.data = this.data.slice(0, size);
    }
    getSize() {
      calls.push({ op: 'getSize' });
      return this.data.byteLength;
    }
    close() {
      calls.push({ op: 'close' });
    }
  }
  return { scope: { FileSystemSyncAccessHandle } as never, Handle: FileSystemSyncAccessHandle, calls };
}

const PAGE = 4096;
const FRAME = WAL_FRAME_HEADER_BYTES + PAGE;
/** A frame as SQLite's WAL writes it: header bytes then page bytes, each filled with its own pattern. */
const header = (i: number) => new Uint8Array(WAL_FRAME_HEADER_BYTES).fill(100 + i);
const page = (i: number) => new Uint8Array(PAGE).fill(i);

/** SQLite's commit: N frames after the WAL header (offset 32 + the sahpool's 4096-byte header), then xSync. */
function commit(h: { write(b: Uint8Array, o: { at: number }): number; flush(): void }, frames: number, from = 0): number[] {
  const answers: number[] = [];
  for (let i = from; i < from + frames; i++) {
    const at = 4096 + 32 + i * FRAME;
    answers.push(h.write(header(i), { at }), h.write(page(i), { at: at + WAL_FRAME_HEADER_BYTES }));
  }
  h.flush();
  return answers;
}

afterEach(() => resetIoCountersForTests());

describe('WAL frame writes merged (issues 16/19: one handle write per frame)', () => {
  it('a COMMIT of 14 frames reaches the handle as 14 writes and 1 flush, with the same bytes SQLite asked for', () => {
    const plain = fakeScope();
    const merged = fakeScope();
    expect(installFrameWriteMerging(merged.scope)).toBe(true);
    const a = new plain.Handle();
    const b = new merged.Handle();
    // SQLite is told each of its writes took all its bytes.
    const told = commit(b, 14);
    expect(told).toEqual(commit(a, 14));
    expect(told.slice(0, 2)).toEqual([WAL_FRAME_HEADER_BYTES, PAGE]);
    expect(commit(b, 14, 14)).toEqual(commit(a, 14, 14));
    expect(b.data).toEqual(a.data);
    const writesIn = (calls: Call[]) => calls.filter((c) => c.op === 'write');
    expect(writesIn(plain.calls)).toHaveLength(56);
    expect(writesIn(merged.calls)).toHaveLength(28);
    expect(writesIn(merged.calls).every((w) => w.bytes === FRAME)).toBe(true);
    // The flush still comes after every byte of its commit.
    expect(merged.calls.filter((c) => c.op === 'flush')).toHaveLength(2);
    expect(merged.calls[14]).toEqual({ op: 'flush' });
  });

  it('the I/O counters (installed below) count the handle writes a commit makes: one per frame', () => {
    const { scope, Handle } = fakeScope();
    installIoCounters(scope, () => 0);
    installFrameWriteMerging(scope);
    const h = new Handle();
    const before = ioSnapshot()!;
    commit(h, 14);
    const d = ioDelta(before, ioSnapshot()!);
    expect({ writes: d.writes, pageWrites: d.pageWrites, flushes: d.flushes, writeBytes: d.writeBytes }).toEqual({ writes: 14, pageWrites: 14, flushes: 1, writeBytes: 14 * FRAME });
  });

  it('a held header is written first, as asked, before any other call on its handle', () => {
    for (const [op, call] of [
      ['flush', (h: InstanceType<ReturnType<typeof fakeScope>['Handle']>) => h.flush()],
      ['read', (h: InstanceType<ReturnType<typeof fakeScope>['Handle']>) => h.read(new Uint8Array(8), { at: 0 })],
      ['truncate', (h: InstanceType<ReturnType<typeof fakeScope>['Handle']>) => h.truncate(10_000)],
      ['getSize', (h: InstanceType<ReturnType<typeof fakeScope>['Handle']>) => expect(h.getSize()).toBe(5000 + WAL_FRAME_HEADER_BYTES)],
      ['close', (h: InstanceType<ReturnType<typeof fakeScope>['Handle']>) => h.close()],
    ] as const) {
      const { scope, Handle, calls } = fakeScope();
      installFrameWriteMerging(scope);
      const h = new Handle();
      expect(h.write(header(1), { at: 5000 })).toBe(WAL_FRAME_HEADER_BYTES);
      expect(calls).toEqual([]);
      call(h);
      expect(calls.map((c) => c.op), op).toEqual(['write', op]);
      expect(calls[0]).toEqual({ op: 'write', at: 5000, bytes: WAL_FRAME_HEADER_BYTES });
      expect(Array.from(h.data.subarray(5000, 5000 + WAL_FRAME_HEADER_BYTES)), op).toEqual(Array.from(header(1)));
    }
  });

  it('a write that does not follow the held header is not merged: the header goes first, alone', () => {
    const { scope, Handle, calls } = fakeScope();
    installFrameWriteMerging(scope);
    const h = new Handle();
    h.write(header(1), { at: 5000 });
    expect(h.write(page(2), { at: 9000 })).toBe(PAGE);
    expect(calls).toEqual([
      { op: 'write', at: 5000, bytes: WAL_FRAME_HEADER_BYTES },
      { op: 'write', at: 9000, bytes: PAGE },
    ]);
    // Another handle's header is its own: held apart, merged with its own page.
    const other = new Handle();
    h.write(header(3), { at: 100 });
    other.write(header(4), { at: 100 });
    other.write(page(4), { at: 100 + WAL_FRAME_HEADER_BYTES });
    h.write(page(3), { at: 100 + WAL_FRAME_HEADER_BYTES });
    expect(calls.slice(2)).toEqual([
      { op: 'write', at: 100, bytes: FRAME },
      { op: 'write', at: 100, bytes: FRAME },
    ]);
    expect(Array.from(other.data.subarray(100, 100 + WAL_FRAME_HEADER_BYTES))).toEqual(Array.from(header(4)));
  });

  it('a merged write that fails is the page write failing: SQLite never reads the page\'s length back', () => {
    const short = fakeScope({ shortBy: 100 });
    installFrameWriteMerging(short.scope);
    const h = new short.Handle();
    h.write(header(1), { at: 5000 });
    expect(h.write(page(1), { at: 5000 + WAL_FRAME_HEADER_BYTES })).toBe(PAGE - 100);
    // Chromium's answer to a full quota (2^32 − 8) comes back as it was: opfs-faults.ts reads it.
    const full = fakeScope({ answer: 4294967288 });
    installFrameWriteMerging(full.scope);
    const f = new full.Handle();
    f.write(header(1), { at: 5000 });
    expect(f.write(page(1), { at: 5000 + WAL_FRAME_HEADER_BYTES })).toBe(4294967288);
    // A held header that cannot be written fails the call it was released by.
    const g = new full.Handle();
    g.write(header(2), { at: 5000 });
    expect(() => g.flush()).toThrow(/WAL frame header/);
  });

  it('installs once; nothing to install where there is no sync access handle', () => {
    const { scope, Handle, calls } = fakeScope();
    expect(installFrameWriteMerging(scope)).toBe(true);
    expect(installFrameWriteMerging(scope)).toBe(true);
    const h = new Handle();
    commit(h, 2);
    expect(calls.filter((c) => c.op === 'write')).toHaveLength(2);
    expect(installFrameWriteMerging({} as never)).toBe(false);
  });
});
