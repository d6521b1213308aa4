/// <reference lib="webworker" />
/**
 * Bench-only bulk path: puts a prefilled database file (built by the same engine on native SQLite, native.ts) into
 * the app's OPFS pool before the DB worker starts, the way the sahpool VFS imports any database file. The product
 * has no bulk-append call; backup.importApply (issue 6) may replace this once it is in the contract.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { DB_FILE } from '../../src/lib/engine/store/open-wasm';

/** Must match store/open-wasm.ts (not exported there); a mismatch shows as an empty database and fails the run. */
const POOL_NAME = 'engram-sahpool';

self.onmessage = async (event: MessageEvent<{ url: string }>) => {
  try {
    const res = await fetch(event.data.url);
    if (!res.ok) throw new Error(`prefill fetch: HTTP ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const sqlite3 = await sqlite3InitModule();
    const pool = await sqlite3.installOpfsSAHPoolVfs({ name: POOL_NAME, initialCapacity: 6 });
    // What page size would the app create? (The native file must use the same.)
    const probe = new pool.OpfsSAHPoolDb('/page-size-probe');
    const pageSize = Number(probe.selectValue('PRAGMA page_size'));
    probe.close();
    pool.unlink('/page-size-probe');
    const t0 = performance.now();
    await pool.importDb(DB_FILE, bytes);
    const importMs = performance.now() - t0;
    // Let go of the access handles: the DB worker opens the pool next.
    pool.pauseVfs();
    self.postMessage({ ok: true, bytes: bytes.length, pageSize, importMs });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
