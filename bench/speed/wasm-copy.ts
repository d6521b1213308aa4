/**
 * A kept database file (episodes-native.ts --keep) loaded into Node's sqlite-wasm build, in memory, behind the
 * browser's driver (its column reader and the query planner stability guarantee): for probes that must time or
 * compare what the browser's SQLite does, not native SQLite's.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { readFileSync } from 'node:fs';
import type { SqlDriver } from '../../src/lib/engine/store/driver';
import { createSqliteWasmDriver } from '../../src/lib/engine/store/sqlite-wasm-driver';

export async function openWasmCopy(path: string): Promise<SqlDriver> {
  const sqlite3 = await sqlite3InitModule();
  const bytes = new Uint8Array(readFileSync(path));
  const db = new sqlite3.oo1.DB(':memory:');
  const at = sqlite3.wasm.allocFromTypedArray(bytes);
  const flags = sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE;
  if (sqlite3.capi.sqlite3_deserialize(db.pointer as number, 'main', at, bytes.length, bytes.length, flags) !== 0) throw new Error(`could not load ${path}`);
  return createSqliteWasmDriver(db, { capi: sqlite3.capi, wasm: sqlite3.wasm as never });
}
