/**
 * One FileSystemSyncAccessHandle write per WAL frame instead of two (issues 16/19: what a foreground write costs).
 * SQLite appends each WAL frame as two writes — its 24-byte frame header, then the page right after it — and the
 * sahpool VFS hands each to the handle as is: an `episode.record` (14 pages) made 28 handle writes, and in the
 * lifecycle bench those writes were the largest share of a slow record (profiled in Chromium on OPFS with
 * bench/speed/record-profile.ts: 8.4 of 24.4 ms in the slowest tenth; a handle write has a cost of its own, not
 * only its bytes — 14 frames written as 28 calls took ~1.3–1.8 ms, as 14 calls ~0.95 ms).
 *
 * Here a write of exactly one frame header is held back, and the page write that follows it at the very next
 * byte goes to the handle together with it, as one write of both. Nothing else changes what reaches the file, or
 * in what order on that handle: any other call on the handle — a write elsewhere, a read, flush (SQLite's xSync),
 * truncate, getSize, close — first writes the held header as it was asked. A COMMIT's flush therefore still
 * covers every byte SQLite wrote before it (durability unchanged, synchronous=FULL), and a failed write still
 * fails the write SQLite made (the merged one: the same frame, the same transaction).
 */

/** A WAL frame header: page number, commit size, salts, checksums (sqlite3 wal.c, WAL_FRAME_HDRSIZE). */
export const WAL_FRAME_HEADER_BYTES = 24;

interface HandleProto {
  write(buffer: ArrayBufferView | ArrayBuffer, opts?: { at?: number }): number;
  read(buffer: ArrayBufferView, opts?: { at?: number }): number;
  flush(): void;
  truncate(size: number): void;
  getSize(): number;
  close(): void;
  __engramFrameWrites?: true;
}

const bytesOf = (b: ArrayBufferView | ArrayBuffer): Uint8Array =>
  b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * Installs the merging on FileSystemSyncAccessHandle in this worker (before any handle is used: open-wasm.ts).
 * Returns false where there is no such handle (Node, tests without a fake).
 */
export function installFrameWriteMerging(scope: { FileSystemSyncAccessHandle?: { prototype: HandleProto } } = globalThis as never): boolean {
  const proto = scope.FileSystemSyncAccessHandle?.prototype;
  if (!proto) return false;
  if (proto.__engramFrameWrites) return true;
  const { write, read, flush, truncate, getSize, close } = proto;
  /** The frame header held back per handle (a copy: SQLite reuses its buffer) and where it goes. */
  const held = new WeakMap<HandleProto, { bytes: Uint8Array; at: number }>();

  /** Writes a held header as it was asked, before anything else touches the handle. */
  const release = (h: HandleProto): void => {
    const p = held.get(h);
    if (!p) return;
    held.delete(h);
    const n = write.call(h, p.bytes, { at: p.at });
    if (n !== p.bytes.byteLength) throw new Error(`write of a WAL frame header failed (${n} of ${p.bytes.byteLength} bytes)`);
  };

  proto.write = function (this: HandleProto, buffer, opts) {
    const p = held.get(this);
    const at = opts?.at;
    if (p && at === p.at + p.bytes.byteLength) {
      held.delete(this);
      const page = bytesOf(buffer);
      const both = new Uint8Array(p.bytes.byteLength + page.byteLength);
      both.set(p.bytes);
      both.set(page, p.bytes.byteLength);
      const n = write.call(this, both, { at: p.at });
      if (n === both.byteLength) return page.byteLength;
      // Not all of it: a count SQLite reads as a failed write (never the page's length). A count past the
      // length (Chromium's 2^32 − 8 for a full quota) passes through as it came.
      return n > both.byteLength ? n : Math.max(0, n - p.bytes.byteLength);
    }
    release(this);
    if (buffer.byteLength === WAL_FRAME_HEADER_BYTES && at !== undefined) {
      held.set(this, { bytes: bytesOf(buffer).slice(), at });
      return WAL_FRAME_HEADER_BYTES;
    }
    return write.call(this, buffer, opts);
  };
  proto.read = function (this: HandleProto, buffer, opts) {
    release(this);
    return read.call(this, buffer, opts);
  };
  proto.flush = function (this: HandleProto) {
    release(this);
    flush.call(this);
  };
  proto.truncate = function (this: HandleProto, size) {
    release(this);
    truncate.call(this, size);
  };
  proto.getSize = function (this: HandleProto) {
    release(this);
    return getSize.call(this);
  };
  proto.close = function (this: HandleProto) {
    try {
      release(this);
    } finally {
      close.call(this);
    }
  };
  Object.defineProperty(proto, '__engramFrameWrites', { value: true });
  return true;
}
