import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { EngineError } from '../../domain/errors';
import { applyWal } from './wal-replay';

/**
 * The database opened read-only from a copy of its files, for a start-up on a full disk (issue 13
 * defect 2). When the origin's storage quota is used up, the sahpool VFS cannot even be installed (it
 * creates a probe file first), so SQLite cannot open the real files. Reading them needs no quota: each
 * pool file is read with `getFile()`, the database and its WAL are found by the path in their headers,
 * the WAL's committed frames are applied (wal-replay.ts), and the image opens as an in-memory database
 * whose writes an authorizer refuses — so nothing typed there can be silently lost when the tab closes.
 *
 * The sahpool file layout (sqlite-wasm 3.54, `installOpfsSAHPoolVfs`): `<directory>/.opaque/<random>`,
 * each with a 4096-byte header — the client path (NUL-terminated, ≤ 512 bytes), flags (u32 BE at 512),
 * a digest — then the file's bytes.
 */
const HEADER_BYTES = 4096;
const MAX_PATH_BYTES = 512;
const OPAQUE_DIR = '.opaque';

/** The sahpool's files by client path (`/engram.sqlite3`, `/engram.sqlite3-wal`), or empty when it has none. */
export async function readSahpoolFiles(directory: string, wanted: readonly string[]): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>();
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await navigator.storage.getDirectory();
    for (const part of directory.split('/').filter(Boolean)) dir = await dir.getDirectoryHandle(part);
    dir = await dir.getDirectoryHandle(OPAQUE_DIR);
  } catch (err) {
    if ((err as { name?: string }).name === 'NotFoundError') return found;
    throw err;
  }
  const decoder = new TextDecoder();
  for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
    if (handle.kind !== 'file') continue;
    const file = await (handle as FileSystemFileHandle).getFile();
    if (file.size < HEADER_BYTES) continue;
    const header = new Uint8Array(await file.slice(0, MAX_PATH_BYTES).arrayBuffer());
    const end = header.indexOf(0);
    if (end <= 0) continue;
    const path = decoder.decode(header.subarray(0, end));
    if (!wanted.includes(path)) continue;
    found.set(path, new Uint8Array(await file.slice(HEADER_BYTES).arrayBuffer()));
  }
  return found;
}

/** The database's committed state as one image (empty when there is no database yet). */
export async function readDatabaseImage(directory: string, dbFile: string): Promise<{ image: Uint8Array; frames: number }> {
  const files = await readSahpoolFiles(directory, [dbFile, `${dbFile}-wal`]);
  const db = files.get(dbFile);
  if (!db || db.byteLength === 0) return { image: new Uint8Array(0), frames: 0 };
  const { image, frames } = applyWal(db, files.get(`${dbFile}-wal`) ?? null);
  return { image, frames };
}

/** Opens `image` (possibly empty) as a private in-memory database. */
export function openImage(sqlite3: Sqlite3Static, image: Uint8Array): Database {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  if (image.byteLength === 0) return db;
  const pointer = sqlite3.wasm.allocFromTypedArray(image);
  const flags = sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE;
  const rc = sqlite3.capi.sqlite3_deserialize(db.pointer as number, 'main', pointer, image.byteLength, image.byteLength, flags);
  if (rc !== 0) {
    db.close();
    throw new Error(`sqlite3_deserialize failed (${rc})`);
  }
  return db;
}

/** What a write meets while the database is open read-only. */
export function readOnlyError(): EngineError {
  return new EngineError(
    'QUOTA_EXCEEDED',
    "This device's storage for Engram is full, so your data was opened read-only: nothing new can be saved. Free some space (Settings → Storage) and Engram saves again.",
    { reason: 'read-only' },
  );
}

/**
 * From now on, statements that would change the database are refused when SQLite prepares them
 * (an authorizer), answering `readOnlyError()`. Reading, transactions (an export's snapshot) and the
 * temp schema stay allowed.
 */
export function refuseWrites(sqlite3: Sqlite3Static, db: Database): void {
  const c = sqlite3.capi;
  const writes = new Set<number>([
    c.SQLITE_INSERT,
    c.SQLITE_UPDATE,
    c.SQLITE_DELETE,
    c.SQLITE_CREATE_INDEX,
    c.SQLITE_CREATE_TABLE,
    c.SQLITE_CREATE_TRIGGER,
    c.SQLITE_CREATE_VIEW,
    c.SQLITE_CREATE_VTABLE,
    c.SQLITE_DROP_INDEX,
    c.SQLITE_DROP_TABLE,
    c.SQLITE_DROP_TRIGGER,
    c.SQLITE_DROP_VIEW,
    c.SQLITE_DROP_VTABLE,
    c.SQLITE_ALTER_TABLE,
    c.SQLITE_REINDEX,
    c.SQLITE_ANALYZE,
  ]);
  const rc = c.sqlite3_set_authorizer(
    db.pointer as number,
    (_user: number, action: number, _a: string | 0, _b: string | 0, database: string | 0) =>
      writes.has(action) && database !== 'temp' ? c.SQLITE_DENY : c.SQLITE_OK,
    0,
  );
  if (rc !== 0) throw new Error(`sqlite3_set_authorizer failed (${rc})`);
}

/** The driver's translateError while read-only: a refused write becomes QUOTA_EXCEEDED with what to do. */
export function translateReadOnly(err: unknown): unknown {
  const message = err instanceof Error ? err.message : String(err);
  return /not authorized|SQLITE_AUTH/i.test(message) ? readOnlyError() : err;
}
