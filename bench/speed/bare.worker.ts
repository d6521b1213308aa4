/// <reference lib="webworker" />
/**
 * The floor for a cold start on this stack (issue 16 item 3): a bare sqlite-wasm worker that opens the same OPFS
 * file through the same sahpool VFS and runs one FTS query — no engine, no migrations check, no Comlink. The page
 * loads it instead of the DB worker (?bare) and compares the two from the same navigation start.
 */
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { DB_FILE } from '../../src/lib/engine/store/open-wasm';

const POOL_NAME = 'engram-sahpool';
// The same marks as the DB worker's (startup-marks.ts), also as `performance.mark`s for cold-ab.ts --trace.
const at = (stage: string) => performance.timeOrigin + performance.mark(`engram:${stage}`).startTime;

const started = at('worker-start');
(async () => {
  try {
    const sqlite3 = await sqlite3InitModule();
    const wasm = at('wasm');
    const pool = await sqlite3.installOpfsSAHPoolVfs({ name: POOL_NAME, initialCapacity: 6 });
    const poolAt = at('pool');
    const db = new pool.OpfsSAHPoolDb(DB_FILE);
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;');
    const open = at('open');
    const rows = db.selectValues("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'parseconfig' ORDER BY rank LIMIT 5");
    const query = at('first-call');
    db.close();
    pool.pauseVfs();
    self.postMessage({ ok: true, marks: { 'worker-start': started, wasm, pool: poolAt, open, 'first-call': query }, rows: rows.length });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
})();
