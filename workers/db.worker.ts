/// <reference lib="webworker" />
// Entry point only: the DB worker owns the database when its tab leads (see engine/host/db-host.ts).
//
// The cold start (issue 16): this entry is small on purpose. It starts fetching and compiling sqlite3's wasm at once,
// then loads the engine's code (db-worker-engine.ts, most of the worker's bytes) while the wasm compiles, instead of
// only after it has been parsed and run. Calls that arrive before the engine has loaded wait for it.
import * as Comlink from 'comlink';
import { markStartup } from '../src/lib/engine/host/startup-marks';
import { loadSqlite3 } from '../src/lib/engine/store/open-wasm';
import { readSqliteMemory } from '../src/lib/engine/store/sqlite-memory';
import type { DbWorkerApi } from '../src/lib/engine/host/worker-api';

markStartup('worker-start');
// A failure here is the engine's to report: it awaits the same promise when it opens the database.
loadSqlite3().catch(() => undefined);
const engine: Promise<DbWorkerApi> = import('./db-worker-engine').then((m) => m.api);

type Deferred<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

const api: Deferred<DbWorkerApi> = {
  start: async (opts) => (await engine).start(opts),
  call: async (req) => (await engine).call(req),
  subscribe: async (listener) => (await engine).subscribe(listener),
  info: async () => (await engine).info(),
  connectJobs: async (port) => (await engine).connectJobs(port),
  startup: async () => (await engine).startup(),
  sqliteMemory: () => readSqliteMemory(),
};
Comlink.expose(api);
