import { randomId, systemClock } from '../../domain/clock';
import type { Logger } from '../../domain/log';
import { provideDbFileAccess } from '../backup/db-file-access';
import { createEngine, type Engine } from '../engine';
import type { EngineEnv } from '../env';
import { opfsProjectFileStore } from '../files/opfs-project-file-store';
import { memoryProjectFileStore } from '../files/project-file-store';
import { ensureSegmenterVersion } from '../store/fts-reindex';
import { migrate } from '../store/migrate';
import { migrations } from '../store/migrations';
import { warmRecallAnalysis } from '../recall/warm-up';
import { fallBackToReadOnly, isStorageFull, loadSqlite3, openWasmDatabase, type OpenedDatabase, type ReadOnlyStart } from '../store/open-wasm';
import { createSwitchableDriver, type SwitchableDriver } from '../store/switchable-driver';
import { withMemoryFault, type MemoryFault } from '../store/memory-faults';

/** While read-only, how often the real database is tried again (a person frees space at their pace). */
export const REOPEN_EVERY_MS = 4000;

type MutableStorage = { -readonly [K in keyof EngineEnv['storage']]: EngineEnv['storage'][K] };

/**
 * The DB worker's engine (the leader's `openEngine`): the database on OPFS, or — when the origin's
 * storage is full at start-up (issue 13 defect 2) — the real database opened read-only, said so in
 * `system.status` (storageReason `storage-full`, readOnly), with every write refused as QUOTA_EXCEEDED.
 * Meanwhile the real file is tried again every few seconds; once it opens and takes its upgrades, the
 * engine switches to it and saving resumes — no reload, nothing typed lost (nothing was accepted).
 *
 *   open ─ ok ─▶ engine ─ upgrade needs room ─▶ read-only copy ─┐
 *        └ storage full ───────────────────────▶ read-only copy ─┴▶ every 4 s: reopen ─ ok ─▶ switch
 */
export async function openBrowserEngine(opts: {
  persistent: boolean;
  log: Logger;
  waiting: () => void;
  fault?: MemoryFault;
  /** The database's opening, when the caller started it before this code had loaded (host/worker-api.ts). */
  opening?: Promise<OpenedDatabase>;
}): Promise<Engine> {
  const { persistent, log } = opts;
  // Starts fetching and compiling sqlite-wasm at once (unless the caller already has); while they run the thread is
  // free, and the first recall's question analysis is warmed in that time (recall/warm-up.ts) instead of on the first
  // recall's path.
  const opening = opts.opening ?? openWasmDatabase({ persistent, log, onWaiting: opts.waiting });
  setTimeout(() => {
    try {
      warmRecallAnalysis(Date.now());
    } catch (err) {
      // Only a head start is lost: the first recall does the same analysis itself.
      log.warn('db.warm-up-failed', { error: err instanceof Error ? err.name : 'error' });
    }
  }, 0);
  let opened = await opening;
  const storage: MutableStorage = { ...opened.storage };
  const driver = createSwitchableDriver(opened.driver);
  // The development fault switch (ui/app/devtools.ts): set once the engine is up, so start-up itself is healthy.
  const faulty = opts.fault ? withMemoryFault(driver, null) : null;
  const env: EngineEnv = {
    driver: faulty ?? driver,
    clock: systemClock,
    ids: randomId,
    log,
    storage,
    startedAt: Date.now(),
    // Project setting files in OPFS next to the database; in memory when the database is too.
    files: persistent && typeof navigator.storage?.getDirectory === 'function' ? opfsProjectFileStore() : memoryProjectFileStore(systemClock),
  };
  const provide = async (o: OpenedDatabase) =>
    // Database-file import (backup, issue 6) needs the live connection and the migrations.
    provideDbFileAccess(driver, { sqlite3: await loadSqlite3(), db: o.db, migrations });
  await provide(opened);
  let engine: Engine;
  try {
    engine = createEngine(env, migrations);
  } catch (err) {
    if (opened.readOnly || opened.storage.kind !== 'opfs' || !isStorageFull(err)) throw err;
    opened = await fallBackToReadOnly(opened, log);
    driver.switchTo(opened.driver);
    Object.assign(storage, opened.storage);
    await provide(opened);
    engine = createEngine(env, migrations);
  }
  if (faulty && opts.fault) {
    faulty.fault = opts.fault;
    log.warn('db.memory-fault', { fault: opts.fault });
  }
  if (opened.readOnly) {
    opened.readOnly.lockWrites();
    reopenWhenThereIsRoom({ start: opened.readOnly, driver, storage, log, provide });
  }
  return engine;
}

function reopenWhenThereIsRoom(deps: {
  start: ReadOnlyStart;
  driver: SwitchableDriver;
  storage: MutableStorage;
  log: Logger;
  provide: (o: OpenedDatabase) => Promise<void>;
}): void {
  const { start, driver, storage, log } = deps;
  const attempt = async (): Promise<void> => {
    let next: OpenedDatabase | null = null;
    try {
      next = await start.reopen();
      if (next) {
        migrate(next.driver, migrations, () => Date.now());
        ensureSegmenterVersion({ driver: next.driver, log });
      }
    } catch (err) {
      if (!isStorageFull(err)) log.warn('db.reopen-failed', { error: err instanceof Error ? err.name : 'error' });
      if (next) {
        next.driver.close();
        next.pool?.pauseVfs();
      }
      next = null;
    }
    if (!next) {
      setTimeout(() => void attempt(), REOPEN_EVERY_MS);
      return;
    }
    driver.switchTo(next.driver).close();
    Object.assign(storage, next.storage);
    delete storage.readOnly;
    await deps.provide(next);
    log.info('db.read-write-again');
  };
  setTimeout(() => void attempt(), REOPEN_EVERY_MS);
}
