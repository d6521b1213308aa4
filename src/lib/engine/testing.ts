/**
 * Test support: a real engine on an in-memory sqlite-wasm database, with a fixed clock and
 * sequential ids. Used by engine unit tests and the acceptance tests.
 */
import { fixedClock, sequentialIds } from '../domain/clock';
import { memoryLogger } from '../domain/log';
import type { RetrievalConfig } from '../domain/recall/config';
import type { ContextTuning } from './context/tuning';
import type { ImportTuning } from './imports/import-service';
import { createEngine, type Engine } from './engine';
import { memoryProjectFileStore, type ProjectFileStore } from './files/project-file-store';
import { migrations } from './store/migrations';
import { openWasmDatabase } from './store/open-wasm';
import { withMemoryFault } from './store/memory-faults';

export const T0 = Date.UTC(2026, 0, 17, 10, 30, 0);

export async function createTestEngine(
  opts: { now?: number; files?: ProjectFileStore; context?: Partial<ContextTuning>; retrieval?: Partial<RetrievalConfig>; imports?: Partial<ImportTuning> } = {},
) {
  const clock = fixedClock(opts.now ?? T0);
  const log = memoryLogger();
  const opened = await openWasmDatabase({ persistent: false, log });
  // Project setting files live in memory for tests (OPFS in the browser worker).
  const files = opts.files ?? memoryProjectFileStore(clock);
  // Healthy until a test breaks the memory tables (`faults.fault = 'memory-unreadable'`, store/memory-faults.ts).
  const faults = withMemoryFault(opened.driver, null);
  const engine = createEngine(
    { driver: faults, clock, ids: sequentialIds('t'), log, storage: opened.storage, startedAt: clock.now(), files, context: opts.context, retrieval: opts.retrieval, imports: opts.imports },
    migrations,
  );
  return { engine, clock, log, driver: opened.driver, db: opened.db, files, faults };
}

export type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;

/** Unwraps a response in a test, failing loudly with the error if it is not ok. */
export function expectOk<T>(res: { ok: true; data: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!res.ok) throw new Error(`expected ok, got ${res.error.code}: ${res.error.message}`);
  return res.data;
}
