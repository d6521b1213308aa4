import { decodeUtf8 } from './utf8-heap';

/**
 * A row's column values read straight from sqlite-wasm's exported C functions (issue 16 item 5: the reindex's
 * longest foreground waits were the DB worker's garbage collector — 319 of a 336 ms wait in a CPU profile at 10k
 * turns). oo1's `Stmt.get` reads each column through two wrapped C calls (the type, then the value), and every
 * wrapped call allocates its argument array and an allocation scope (`scopedAllocPush`/`Pop`): the column reads
 * were the largest share of what the worker allocated while the reindex and its probe ran (~150 of 416 MB in an
 * allocation sample, bench notes in the commit). The exported functions take and return plain numbers: a column
 * read allocates only the value it returns.
 *
 * The values are exactly oo1's: NULL → null; INTEGER → a number where it is a safe integer, else a bigint; FLOAT →
 * a number; TEXT → the whole string, a NUL inside it kept; BLOB → a copy as a Uint8Array.
 */
export interface RawWasm {
  /**
   * Whether the build passes 64-bit integers as bigints (sqlite-wasm sets it; its typings leave it out). Unless it
   * is true this reader is not used: oo1 reads.
   */
  bigIntEnabled?: boolean;
  heap8u: () => Uint8Array;
  exports: Record<string, unknown>;
}

type ColumnFn<R> = (stmt: number, column: number) => R;

/**
 * Texts up to this many bytes are decoded in JS (utf8-heap.ts: ordinary V8 strings, not Blink's external ones whose
 * clearing filled the reindex's longest GC pauses); longer ones by TextDecoder, which is faster per byte (natively a
 * KB of ASCII costs ~9 µs in JS against 0.5) and makes few of them. At 512 the DB worker's longest major GC in the
 * stall bench was 35 / 33 ms, at 1024 25 / 25, with none 46–83 (stall-trace.ts, quiet, alternately).
 */
export const JS_DECODE_MAX_BYTES = 1024;

const SQLITE_INTEGER = 1;
const SQLITE_FLOAT = 2;
const SQLITE_TEXT = 3;
const SQLITE_BLOB = 4;
const SQLITE_NULL = 5;

/** Reads column `column` of the row a statement (its C pointer) stands on after a step that returned a row. */
export type ColumnReader = (stmt: number, column: number) => unknown;

/** The reader, or null where the build cannot give one (no bigint passing, an export missing): then oo1 reads. */
export function createColumnReader(wasm: RawWasm): ColumnReader | null {
  if (wasm.bigIntEnabled !== true) return null;
  const fn = <R>(name: string): ColumnFn<R> | null => {
    const f = wasm.exports[name];
    return typeof f === 'function' ? (f as ColumnFn<R>) : null;
  };
  const type = fn<number>('sqlite3_column_type');
  const double = fn<number>('sqlite3_column_double');
  const int64 = fn<bigint>('sqlite3_column_int64');
  const text = fn<number>('sqlite3_column_text');
  const blob = fn<number>('sqlite3_column_blob');
  const bytes = fn<number>('sqlite3_column_bytes');
  if (!type || !double || !int64 || !text || !blob || !bytes) return null;
  const decoder = new TextDecoder('utf-8');
  // TextDecoder refuses a view of shared memory: copy out of it where the heap is shared.
  const shared = (heap: Uint8Array) => typeof SharedArrayBuffer !== 'undefined' && heap.buffer instanceof SharedArrayBuffer;
  return (stmt, column) => {
    switch (type(stmt, column)) {
      case SQLITE_NULL:
        return null;
      case SQLITE_INTEGER: {
        // Every integer a double holds exactly reads as the double; past 2^53 − 1 the 64-bit value, as a bigint.
        const d = double(stmt, column);
        if (Number.isSafeInteger(d)) return d;
        const big = int64(stmt, column);
        return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      case SQLITE_FLOAT:
        return double(stmt, column);
      case SQLITE_TEXT: {
        const at = text(stmt, column);
        if (!at) return null;
        // After sqlite3_column_text, as SQLite asks: the length of the text it returned.
        const end = at + bytes(stmt, column);
        const heap = wasm.heap8u();
        return decodeUtf8(heap, at, end, JS_DECODE_MAX_BYTES, (a, b) => decoder.decode(shared(heap) ? heap.slice(a, b) : heap.subarray(a, b)));
      }
      case SQLITE_BLOB: {
        const n = bytes(stmt, column);
        const at = blob(stmt, column);
        return n && at ? wasm.heap8u().slice(at, at + n) : new Uint8Array(0);
      }
      default:
        throw new Error(`column ${column}: a type SQLite does not have`);
    }
  };
}
