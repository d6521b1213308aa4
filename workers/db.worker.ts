/// <reference lib="webworker" />
// Entry point only: the DB worker owns the database when its tab leads (see engine/host/db-host.ts).
import * as Comlink from 'comlink';
import { createDbWorkerApi } from '../src/lib/engine/host/worker-api';
import { provideVectorWorker } from '../src/lib/engine/embeddings/vector-search-client';

// Each open database searches its vectors in a worker of its own, beside the lexical lanes (issue 18).
provideVectorWorker(() => new Worker(new URL('./vectors.worker.ts', import.meta.url), { type: 'module', name: 'engram-vectors' }));
Comlink.expose(createDbWorkerApi());
