import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { markStartup } from '../host/startup-marks';

/**
 * Loading sqlite-wasm, on its own so the DB worker's first script can start fetching and compiling the wasm before
 * the engine's code has loaded (host/worker-api.ts imports the engine lazily; issue 16 item 3).
 */
let sqlite3Promise: Promise<Sqlite3Static> | null = null;

/** One sqlite3 module per JS context. */
export function loadSqlite3(): Promise<Sqlite3Static> {
  sqlite3Promise ??= sqlite3InitModule().then((sqlite3) => {
    // sqlite-wasm warns about a failed statement ("sqlite3_step() rc=…") through a console.warn it bound
    // at start-up, before the error reaches us as an exception. Looked up on each call instead, so a test
    // that provokes a failure on purpose can check that warning rather than print it.
    (sqlite3.config as { warn: (...args: unknown[]) => void }).warn = (...args) => console.warn(...args);
    markStartup('wasm');
    return sqlite3;
  });
  return sqlite3Promise;
}

/** The sqlite3 module if this context has started loading it, without starting it. */
export function sqlite3IfLoaded(): Promise<Sqlite3Static | null> {
  return sqlite3Promise ?? Promise.resolve(null);
}
