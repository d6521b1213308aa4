/**
 * The fuzz suite's engine: the backup tests' in-memory sqlite-wasm engine (data in every table, database
 * files importable), plus the database image so a test can tell that a refused write changed nothing.
 */
import { fixedClock, sequentialIds } from '../../../src/lib/domain/clock';
import { memoryLogger } from '../../../src/lib/domain/log';
import { provideDbFileAccess } from '../../../src/lib/engine/backup/db-file-access';
import { createEngine } from '../../../src/lib/engine/engine';
import { memoryProjectFileStore } from '../../../src/lib/engine/files/project-file-store';
import { migrations } from '../../../src/lib/engine/store/migrations';
import { loadSqlite3, openWasmDatabase } from '../../../src/lib/engine/store/open-wasm';
import { T0 } from '../../../src/lib/engine/testing';

export async function createFuzzEngine() {
  const clock = fixedClock(T0);
  const log = memoryLogger();
  const sqlite3 = await loadSqlite3();
  const opened = await openWasmDatabase({ persistent: false, log });
  provideDbFileAccess(opened.driver, { sqlite3, db: opened.db, migrations });
  const files = memoryProjectFileStore(clock);
  const engine = createEngine(
    { driver: opened.driver, clock, ids: sequentialIds('f'), log, storage: opened.storage, startedAt: clock.now(), files },
    migrations,
  );
  /** The whole database as bytes (the live connection's image; importing a database file swaps that connection in). */
  const image = (): Uint8Array => sqlite3.capi.sqlite3_js_db_export(opened.db);
  return { engine, clock, log, driver: opened.driver, files, image };
}

export type FuzzEngine = Awaited<ReturnType<typeof createFuzzEngine>>;
