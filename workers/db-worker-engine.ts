// The DB worker's engine half, loaded by workers/db.worker.ts with a dynamic import while sqlite3's wasm compiles.
import { createDbWorkerApi } from '../src/lib/engine/host/worker-api';
import { provideVectorWorker } from '../src/lib/engine/embeddings/vector-search-client';

// Each open database searches its vectors in a worker of its own, beside the lexical lanes (issue 18).
provideVectorWorker(() => new Worker(new URL('./vectors.worker.ts', import.meta.url), { type: 'module', name: 'engram-vectors' }));

export const api = createDbWorkerApi();
