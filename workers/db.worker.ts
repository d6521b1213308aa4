/// <reference lib="webworker" />
// Entry point only: the DB worker owns the database when its tab leads (see engine/host/db-host.ts).
import * as Comlink from 'comlink';
import { createDbWorkerApi } from '../src/lib/engine/host/worker-api';

Comlink.expose(createDbWorkerApi());
