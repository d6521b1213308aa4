/**
 * sqlite-wasm's own memory figures, read in the DB worker: the linear memory (page cache, statements, FTS state) and
 * sqlite3_status64(SQLITE_STATUS_MEMORY_USED). The speed benchmark reports them beside the worker's JS heap.
 */
import { sqlite3IfLoaded } from './sqlite3-loader';

export interface SqliteMemory {
  wasmMemory: number;
  memoryUsed: number;
  memoryHighwater: number;
}

export async function readSqliteMemory(): Promise<SqliteMemory | null> {
  const s = await sqlite3IfLoaded();
  if (!s) return null;
  const { pstack } = s.wasm;
  const stack = pstack.pointer;
  try {
    const [current, highwater] = pstack.allocPtr(2) as [number, number];
    s.capi.sqlite3_status64(s.capi.SQLITE_STATUS_MEMORY_USED, current, highwater, 0);
    return { wasmMemory: s.wasm.heap8().byteLength, memoryUsed: Number(s.wasm.peek64(current)), memoryHighwater: Number(s.wasm.peek64(highwater)) };
  } finally {
    pstack.restore(stack);
  }
}
