import * as Comlink from 'comlink';
import { consoleLogger } from '../../domain/log';
import type { EngineRequest } from '../engine';
import { createDbHost, type DbHost } from './db-host';
import { openWasmDatabase } from '../store/open-wasm';
import type { HostEvent, HostInfo } from './messages';
import type { IpcResponse } from '../../domain/errors';
import type { MemoryFault } from '../store/memory-faults';
import { markStartup, startupMarks, type StartupStage } from './startup-marks';
import { readSqliteMemory, type SqliteMemory } from '../store/sqlite-memory';
import { callCommitPages, recordTimeline, timelineBetween, type CommitPages, type TimelineEntry } from '../store/worker-timeline';
import { segmenterVersion } from '../../domain/text/segment';

export interface DbWorkerApi {
  /** `fault`: a development switch that makes the memory tables unreadable (store/memory-faults.ts). */
  start(opts: { persistent: boolean; fault?: MemoryFault }): void;
  call(req: EngineRequest): Promise<IpcResponse<unknown>>;
  subscribe(listener: (event: HostEvent) => void): void;
  info(): HostInfo | null;
  /** The jobs worker reaches the engine through this port and never opens the database itself. */
  connectJobs(port: MessagePort): void;
  /** When each stage of opening the database finished (startup-marks.ts; the speed benchmark's cold start). */
  startup(): Partial<Record<StartupStage, number>>;
  /** sqlite-wasm's own memory figures (the speed benchmark's worker memory); null before sqlite3 has loaded. */
  sqliteMemory(): Promise<SqliteMemory | null>;
  /** The worker's calls and job transactions overlapping [from, to] (epoch ms; store/worker-timeline.ts: the stall probe's breakdown). */
  timeline(from: number, to: number): TimelineEntry[];
  /** Turns that timeline on (off by default: production notes nothing); the benchmark's stall probe turns it on. */
  recordTimeline(on: boolean): void;
  /** Per call method, the most WAL pages one call appended and how many appended ≥ 100, since the timeline was turned on. */
  commitPages(): Record<string, CommitPages>;
}

/** The object db.worker.ts exposes over Comlink. */
export function createDbWorkerApi(): DbWorkerApi {
  markStartup('worker-start');
  const log = consoleLogger('db');
  let host: DbHost | null = null;
  const early: ((e: HostEvent) => void)[] = [];
  const needHost = (): DbHost => {
    if (!host) throw new Error('db worker not started');
    return host;
  };
  return {
    start({ persistent, fault }) {
      if (host) return;
      host = createDbHost({
        // A guest tab's in-memory database is its own: it never serves (or uses) the tabs on OPFS.
        isolated: !persistent,
        openEngine: async ({ waiting }) => {
          // The engine's code is a chunk of its own, loaded only when this tab is to open the database: the worker's
          // first script stays small and starts sooner, and sqlite-wasm is fetched, compiled and the database opened
          // while that chunk loads and evaluates (issue 16 item 3: one waited for the other before).
          const opening = openWasmDatabase({ persistent, log, onWaiting: waiting });
          opening.catch(() => {}); // its failure is the engine's to report (openBrowserEngine awaits it)
          const code = import('./open-engine').catch(async (err: unknown) => {
            // Without the engine's code the database must not stay open: the next attempt (or another tab) opens it.
            const opened = await opening.catch(() => null);
            opened?.driver.close();
            opened?.pool?.pauseVfs();
            throw err;
          });
          // The index's segmenter version (domain/text/segment.ts: Intl.Segmenter('zh') built and a probe segmented,
          // ~16–23 ms) is probed in the wait for sqlite-wasm and that chunk, when the thread is free; the engine's
          // start-up check (ensureSegmenterVersion) compares it before the first query, as ever. Evaluated with the
          // chunk, it held the thread between the OPFS pool's opening steps.
          setTimeout(() => segmenterVersion(), 0);
          const { openBrowserEngine } = await code;
          const engine = await openBrowserEngine({ persistent, log, waiting, opening, ...(fault ? { fault } : {}) });
          markStartup('engine');
          return engine;
        },
      });
      for (const l of early.splice(0)) host.subscribe(l);
    },
    call: async (req) => {
      const res = await needHost().call(req);
      if (res.ok) markStartup('first-call');
      return res;
    },
    subscribe(listener) {
      if (host) host.subscribe(listener);
      else early.push(listener);
    },
    info: () => host?.info() ?? null,
    startup: () => startupMarks(),
    sqliteMemory: () => readSqliteMemory(),
    timeline: (from, to) => timelineBetween(from, to),
    recordTimeline: (on) => recordTimeline(on),
    commitPages: () => callCommitPages(),
    connectJobs(port) {
      Comlink.expose({ call: (req: EngineRequest) => needHost().call(req) }, port);
    },
  };
}
