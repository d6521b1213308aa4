/**
 * What a transaction costs on OPFS, counted at the file handle (issue 19's stall hunt): how many
 * FileSystemSyncAccessHandle writes (and bytes), flushes (the sahpool VFS's xSync) and truncates ran, and how long
 * they took. The DB worker wraps the handle's methods once (installIoCounters); the slice runner and the driver's
 * transactions read the counters before and after, so a slow COMMIT can be told apart: a WAL append and one flush,
 * or a checkpoint copying hundreds of pages into the database file and flushing it too. Counts and times only —
 * never a byte of what was written.
 */
import type { TimelineIo } from './worker-timeline';

export interface IoCounts {
  writes: number;
  /** Writes of a page or more (≥ 512 bytes): a WAL frame's page, or a page a checkpoint copies; not the 24-byte frame headers. */
  pageWrites: number;
  /**
   * Of pageWrites, those into the WAL file: the pages transactions append (a frame each). Told by the sahpool
   * file's header (its SQLite open flags); a handle whose header does not say is counted in neither split.
   */
  walPageWrites: number;
  /**
   * Of pageWrites, those into the main database file: in WAL mode only a checkpoint writes there, copying pages
   * the WAL already holds (PRAGMA wal_autocheckpoint runs one inside the COMMIT that crosses the mark).
   */
  dbPageWrites: number;
  writeBytes: number;
  writeMs: number;
  flushes: number;
  flushMs: number;
  truncates: number;
  truncateMs: number;
}

const zero = (): IoCounts => ({ writes: 0, pageWrites: 0, walPageWrites: 0, dbPageWrites: 0, writeBytes: 0, writeMs: 0, flushes: 0, flushMs: 0, truncates: 0, truncateMs: 0 });

let counts: IoCounts | null = null;

/**
 * The WAL's size in frames as SQLite sees it (its mxFrame): the frame number of the last page written into the WAL
 * file. A frame's page sits at a fixed offset — the 32-byte WAL header, then (24-byte frame header + page) per
 * frame — so the offset says which frame it is; a WAL SQLite starts again from its beginning (after a checkpoint
 * copied all of it) counts from 1 again. sqlite-wasm exports no sqlite3_wal_hook, so this is how the engine knows
 * how large the WAL is between calls (store/wal-keeper.ts). 0 until a WAL page is written in this worker.
 */
let walFrame = 0;
/** The most frames the WAL held since the counters were installed (a benchmark's bound check). */
let walFrameMost = 0;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/** The frame a page write into the WAL at `offset` (SQLite's, past the sahpool header) is, or null if it is not a frame's page. */
export function walFrameAt(offset: number, pageBytes: number): number | null {
  const frame = (offset - WAL_HEADER_BYTES - FRAME_HEADER_BYTES) / (pageBytes + FRAME_HEADER_BYTES);
  return Number.isInteger(frame) && frame >= 0 ? frame + 1 : null;
}

/** The WAL's frames now (see walFrame), or null where the counters are not installed (Node, an in-memory database). */
export function walFramesNow(): number | null {
  return counts ? walFrame : null;
}

/** The most frames the WAL held since the counters were installed, or null where they are not. */
export function walFramesMost(): number | null {
  return counts ? walFrameMost : null;
}

/** SQLite's smallest page size: a write this large or larger is a page. */
const PAGE_WRITE_BYTES = 512;

/** The counters so far (a copy), or null where they were not installed (Node, an in-memory database). */
export function ioSnapshot(): IoCounts | null {
  return counts ? { ...counts } : null;
}

/** b − a, rounded for a report (ms to 0.1). */
export function ioDelta(a: IoCounts, b: IoCounts): IoCounts {
  const t = (x: number) => Math.round(x * 10) / 10;
  return {
    writes: b.writes - a.writes,
    pageWrites: b.pageWrites - a.pageWrites,
    walPageWrites: b.walPageWrites - a.walPageWrites,
    dbPageWrites: b.dbPageWrites - a.dbPageWrites,
    writeBytes: b.writeBytes - a.writeBytes,
    writeMs: t(b.writeMs - a.writeMs),
    flushes: b.flushes - a.flushes,
    flushMs: t(b.flushMs - a.flushMs),
    truncates: b.truncates - a.truncates,
    truncateMs: t(b.truncateMs - a.truncateMs),
  };
}

/** b − a in the worker timeline's few words (worker-timeline.ts): WAL pages, database-file pages, flushes. */
function timelineIo(a: IoCounts, b: IoCounts): TimelineIo {
  return { walPages: b.walPageWrites - a.walPageWrites, dbPages: b.dbPageWrites - a.dbPageWrites, flushes: b.flushes - a.flushes, flushMs: Math.round((b.flushMs - a.flushMs) * 10) / 10 };
}

/** What was written to the files since `io0` (a snapshot), for a timeline entry; nothing where I/O is not counted. */
export function ioSince(io0: IoCounts | null): { io: TimelineIo } | undefined {
  const io1 = io0 && ioSnapshot();
  return io0 && io1 ? { io: timelineIo(io0, io1) } : undefined;
}

/**
 * The pages written so far that a transaction appended itself: all page writes but a checkpoint's copies into the
 * database file (issue 19: the slice runner's page budget; a checkpoint is the COMMIT's cost, not the steps').
 */
export const ownPageWrites = (c: IoCounts): number => c.pageWrites - c.dbPageWrites;

/** ownPageWrites of the counters now, or null where pages are not counted (Node, or before the pool is counted). */
export function ownPageWritesNow(): number | null {
  const c = ioSnapshot();
  return c ? ownPageWrites(c) : null;
}

/**
 * The sahpool VFS's file layout (sqlite-wasm 3.54, as opfs-read-only.ts reads it): a 4096-byte header — the
 * client path (≤ 512 bytes), SQLite's open flags (u32 big-endian at 512), a digest — then the file's bytes.
 * A write below HEADER_BYTES is the pool (re)naming the file, not SQLite's data.
 */
const HEADER_BYTES = 4096;
const FLAGS_AT = 512;
/** SQLITE_OPEN_MAIN_DB, SQLITE_OPEN_WAL. */
const OPEN_MAIN_DB = 0x100;
const OPEN_WAL = 0x80000;
type FileKind = 'db' | 'wal' | 'other';

interface HandleProto {
  write(buffer: ArrayBufferView | ArrayBuffer, opts?: { at?: number }): number;
  read?(buffer: ArrayBufferView, opts?: { at?: number }): number;
  flush(): void;
  truncate(size: number): void;
  __engramIoCounters?: true;
}

/**
 * Wraps FileSystemSyncAccessHandle's write, flush and truncate in this worker to count them (results and
 * exceptions pass through unchanged). `now`: the clock (tests inject one).
 */
export function installIoCounters(scope: { FileSystemSyncAccessHandle?: { prototype: HandleProto } } = globalThis as never, now: () => number = () => performance.now()): boolean {
  const proto = scope.FileSystemSyncAccessHandle?.prototype;
  if (!proto) return false;
  if (proto.__engramIoCounters) return true;
  const c = (counts = zero());
  const { write, flush, truncate } = proto;
  // Which file a handle holds, read from its header the first time SQLite writes it (once per naming).
  const kinds = new WeakMap<HandleProto, FileKind>();
  const kindOf = (h: HandleProto): FileKind => {
    let kind = kinds.get(h);
    if (kind) return kind;
    kind = 'other';
    try {
      const head = new Uint8Array(FLAGS_AT + 4);
      if (h.read && h.read(head, { at: 0 }) === head.length) {
        const flags = new DataView(head.buffer).getUint32(FLAGS_AT);
        kind = flags & OPEN_WAL ? 'wal' : flags & OPEN_MAIN_DB ? 'db' : 'other';
      }
    } catch {
      // A handle that cannot be read (closed, not the pool's): its pages stay in neither split.
    }
    kinds.set(h, kind);
    return kind;
  };
  proto.write = function (this: HandleProto, buffer, opts) {
    const t = now();
    try {
      return write.call(this, buffer, opts);
    } finally {
      c.writes++;
      c.writeBytes += buffer.byteLength;
      const at = opts?.at;
      if (at !== undefined && at < HEADER_BYTES) {
        // The pool names (or frees) the file: what it holds is read again at its next write.
        kinds.delete(this);
      } else if (buffer.byteLength >= PAGE_WRITE_BYTES) {
        c.pageWrites++;
        const kind = kindOf(this);
        if (kind === 'wal') {
          c.walPageWrites++;
          const frame = at === undefined ? null : walFrameAt(at - HEADER_BYTES, buffer.byteLength);
          if (frame !== null) {
            walFrame = frame;
            walFrameMost = Math.max(walFrameMost, frame);
          }
        }
        else if (kind === 'db') c.dbPageWrites++;
      }
      c.writeMs += now() - t;
    }
  };
  proto.flush = function (this: HandleProto) {
    const t = now();
    try {
      flush.call(this);
    } finally {
      c.flushes++;
      c.flushMs += now() - t;
    }
  };
  proto.truncate = function (this: HandleProto, size) {
    const t = now();
    try {
      truncate.call(this, size);
    } finally {
      c.truncates++;
      c.truncateMs += now() - t;
    }
  };
  Object.defineProperty(proto, '__engramIoCounters', { value: true });
  return true;
}

/** Tests only: forget the counters (the wrapped prototype of a test's fake scope is thrown away with it). */
export function resetIoCountersForTests(): void {
  counts = null;
  slow.length = 0;
  walFrame = 0;
  walFrameMost = 0;
}

/** A write transaction (any: a foreground call's or a slice's) that took SLOW_TRANSACTION_MS or more, and its I/O. */
export interface SlowTransaction {
  /** When it began (ms since the epoch: performance.timeOrigin + now()). */
  at: number;
  ms: number;
  io: IoCounts;
  /** A background slice's (store/slices.ts), or else a foreground call's write. */
  slice: boolean;
  /**
   * A sliced job's WAL checkpoint run between its slices (store/checkpoint-slices.ts): no transaction, yet a
   * foreground call queued behind it waits as long, so it is listed with them.
   */
  checkpoint?: true;
}

let inSlice = false;
/** Set by the slice runner around its transactions, so a slow transaction is told as a slice's or a foreground write's. */
export function markSlice(on: boolean): void {
  inSlice = on;
}

export const SLOW_TRANSACTION_MS = 20;
const SLOW_KEPT = 100;
const slow: SlowTransaction[] = [];

/** Runs a transaction and, when it was slow, keeps what its file I/O was (the last SLOW_KEPT). */
export function countedTransaction<T>(run: () => T, now: () => number = () => performance.now()): T {
  return counted(run, now, false);
}

/** The same for a checkpoint between slices (store/checkpoint-slices.ts): kept with the slow transactions, marked. */
export function countedCheckpoint<T>(run: () => T, now: () => number = () => performance.now()): T {
  return counted(run, now, true);
}

function counted<T>(run: () => T, now: () => number, checkpoint: boolean): T {
  const before = ioSnapshot();
  if (!before) return run();
  const t0 = now();
  const slice = inSlice;
  try {
    return run();
  } finally {
    const ms = now() - t0;
    const after = ioSnapshot();
    if (ms >= SLOW_TRANSACTION_MS && after) {
      slow.push({ at: (typeof performance === 'undefined' ? 0 : performance.timeOrigin) + t0, ms: Math.round(ms * 10) / 10, io: ioDelta(before, after), slice, ...(checkpoint ? { checkpoint: true as const } : {}) });
      if (slow.length > SLOW_KEPT) slow.shift();
    }
  }
}

/** The slow transactions that began at or after `at` (epoch ms). */
export function slowTransactionsSince(at: number): SlowTransaction[] {
  return slow.filter((s) => s.at >= at);
}
