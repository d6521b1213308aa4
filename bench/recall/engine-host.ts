/**
 * The product's engine in Node for the quality benchmark: the same createEngine, migrations and sqlite-wasm as the
 * DB worker (in memory: Node cannot open OPFS), reached through the same createCaller the UI uses. The clock is
 * fixed and set by the harness, so stored turns carry the dates the app would have seen.
 */
import { fixedClock, sequentialIds } from '../../src/lib/domain/clock';
import type { Logger } from '../../src/lib/domain/log';
import { createCaller, type EngineCaller } from '../../src/lib/engine/client/caller';
import { createEngine } from '../../src/lib/engine/engine';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import type { RetrievalConfig } from '../../src/lib/domain/recall/config';
import type { Migration } from '../../src/lib/engine/store/migrate';
import { loadMigrationsFromDisk } from '../../src/lib/engine/store/migrations-fs';
import { openWasmDatabase } from '../../src/lib/engine/store/open-wasm';
import { createCaller as callerFor } from '../../src/lib/engine/client/caller';
import { embeddingsJob } from '../../src/lib/engine/jobs/embeddings-job';
import type { BenchEmbeddings } from './embedding-provider';

/** The embedding provider of this run (--embeddings), or null: lexical recall. */
let provider: BenchEmbeddings | null = null;
export function useBenchEmbeddings(p: BenchEmbeddings | null): void {
  provider = p;
}

let migrations: Migration[] | null = null;

/** Counts the engine's warnings by event name (never their fields: they may describe user data). */
export const engineWarnings = new Map<string, number>();

const countingLogger: Logger = {
  info() {},
  warn: (event) => void engineWarnings.set(event, (engineWarnings.get(event) ?? 0) + 1),
  error: (event) => void engineWarnings.set(event, (engineWarnings.get(event) ?? 0) + 1),
};

export interface BenchEngine {
  clock: ReturnType<typeof fixedClock>;
  /** Calls the engine and throws on a failure: a benchmark on half-stored data would be wrong. */
  call<M extends Method>(method: M, input: Input<M>): Promise<Output<M>>;
  /** With an embedding provider: configures it and runs the jobs worker's fill until every turn and memory has its vector. */
  embedAll(): Promise<void>;
  close(): void;
}

/**
 * `retrieval` is the product's retrieval config (EngineEnv.retrieval), read by the engine on every call: the
 * ablation switches one technique off in it between passes over the same stored data.
 */
export async function openBenchEngine(start: number, opts: { retrieval?: Partial<RetrievalConfig> } = {}): Promise<BenchEngine> {
  migrations ??= loadMigrationsFromDisk();
  const clock = fixedClock(start);
  const opened = await openWasmDatabase({ persistent: false, log: countingLogger });
  const engine = createEngine(
    { driver: opened.driver, clock, ids: sequentialIds('b'), log: countingLogger, storage: opened.storage, startedAt: start, retrieval: opts.retrieval, ...(provider ? { embed: provider.embed } : {}) },
    migrations,
  );
  const ops = sequentialIds('bench-op');
  const caller: EngineCaller = createCaller({ call: (req) => engine.handle(req) }, ops);
  return {
    clock,
    async call(method, input) {
      const res = await caller.call(method, input);
      if (!res.ok) throw new Error(`${method} failed: ${res.error.code} ${res.error.message}`);
      return res.data;
    },
    async embedAll() {
      if (!provider) return;
      const p = provider;
      const res = await caller.call('embeddings.configure', { endpoint: p.endpoint });
      if (!res.ok) throw new Error(`embeddings.configure failed: ${res.error.message}`);
      const job = embeddingsJob({ endpoint: () => p.endpoint, embed: p.embed, runMs: Number.POSITIVE_INFINITY });
      await job.run({ engine: callerFor({ call: (req) => engine.handle(req) }, sequentialIds('bench-embed')), trigger: 'demand', progress: () => {}, signal: new AbortController().signal });
      p.save();
    },
    close: () => engine.close(),
  };
}
