import * as Comlink from 'comlink';
import { consoleLogger } from '../../domain/log';
import type { EngineRequest } from '../engine';
import { createDbHost, type DbHost } from './db-host';
import { openBrowserEngine } from './open-engine';
import type { HostEvent, HostInfo } from './messages';
import type { IpcResponse } from '../../domain/errors';

export interface DbWorkerApi {
  start(opts: { persistent: boolean }): void;
  call(req: EngineRequest): Promise<IpcResponse<unknown>>;
  subscribe(listener: (event: HostEvent) => void): void;
  info(): HostInfo | null;
  /** The jobs worker reaches the engine through this port and never opens the database itself. */
  connectJobs(port: MessagePort): void;
}

/** The object db.worker.ts exposes over Comlink. */
export function createDbWorkerApi(): DbWorkerApi {
  const log = consoleLogger('db');
  let host: DbHost | null = null;
  const early: ((e: HostEvent) => void)[] = [];
  const needHost = (): DbHost => {
    if (!host) throw new Error('db worker not started');
    return host;
  };
  return {
    start({ persistent }) {
      if (host) return;
      host = createDbHost({
        // A guest tab's in-memory database is its own: it never serves (or uses) the tabs on OPFS.
        isolated: !persistent,
        openEngine: ({ waiting }) => openBrowserEngine({ persistent, log, waiting }),
      });
      for (const l of early.splice(0)) host.subscribe(l);
    },
    call: (req) => needHost().call(req),
    subscribe(listener) {
      if (host) host.subscribe(listener);
      else early.push(listener);
    },
    info: () => host?.info() ?? null,
    connectJobs(port) {
      Comlink.expose({ call: (req: EngineRequest) => needHost().call(req) }, port);
    },
  };
}
