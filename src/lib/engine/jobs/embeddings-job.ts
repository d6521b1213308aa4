import { unwrap } from '../../domain/errors';
import type { EmbedFn, EmbeddingEndpoint } from '../embeddings/semantic-service';
import type { Scheduler } from './scheduler';
import type { JobDefinition, JobProgress } from './types';

/** Texts sent to /embeddings per request, and the most a run embeds before it yields to the next (resumes later). */
export const EMBED_BATCH = 32;
export const EMBED_RUN_MS = 20_000;

/**
 * Meaning-based recall's background fill (issue 18): asks the DB worker for texts the configured embedding model has
 * no vector for (`embeddings.pending`), embeds a batch through the endpoint, stores the vectors (`embeddings.store`),
 * and repeats until nothing is left or the run's time is up. Progress is the share of turns and memories embedded.
 * Resumable by construction: what is left is read from the database on every step, so a restart, a closed tab or an
 * endpoint that fails mid-way (the run fails, is recorded, and the next run starts where the vectors end) loses
 * nothing. Without an embedding model it has nothing to do. A model change needs nothing here: the new model has no
 * vectors, so everything is pending, and its first stored batch replaces the old model's vectors. A run reads the
 * endpoint once, at its start; a change during a run aborts it (embeddingsEndpoint below): it stops before its next
 * batch and stores nothing more for the old model.
 */
export function embeddingsJob(deps: { endpoint: () => EmbeddingEndpoint | null; embed: EmbedFn; now?: () => number; runMs?: number }): JobDefinition {
  const now = deps.now ?? (() => Date.now());
  return {
    name: 'embeddings',
    periodMs: 60_000,
    onStartup: true,
    async run({ engine, progress, signal }) {
      const endpoint = deps.endpoint();
      if (!endpoint) return null;
      const started = now();
      let embedded = 0;
      for (;;) {
        if (signal.aborted) break;
        const { items } = unwrap(await engine.call('embeddings.pending', { model: endpoint.model, limit: EMBED_BATCH }));
        if (items.length === 0) break;
        const vectors = await deps.embed(endpoint, items.map((i) => i.text), { timeoutMs: endpoint.timeoutMs });
        if (signal.aborted) break;
        unwrap(
          await engine.call('embeddings.store', {
            model: endpoint.model,
            items: items.map((item, i) => ({ kind: item.kind, id: item.id, vector: vectors[i] ?? [] })),
          }),
        );
        embedded += items.length;
        const status = unwrap(await engine.call('embeddings.status', {}));
        progress(status.total > 0 ? status.embedded / status.total : null, 'jobs.step.embeddings');
        if (now() - started > (deps.runMs ?? EMBED_RUN_MS)) break;
      }
      if (embedded === 0) return null;
      const status = unwrap(await engine.call('embeddings.status', {}));
      return { model: endpoint.model, embedded, total: status.total, done: status.embedded };
    },
  };
}

/**
 * The embedding endpoint the page configured, for the fill (the jobs worker holds one). A new endpoint starts its fill
 * at once: a fill running for the old one stops at its next batch and the new one's follows it (Scheduler.restart),
 * rather than the next periodic tick, up to a minute later; one set before the scheduler exists starts as soon as it
 * is attached. Setting the same endpoint again changes nothing.
 */
export function embeddingsEndpoint() {
  let current: EmbeddingEndpoint | null = null;
  let scheduler: Pick<Scheduler, 'restart'> | null = null;
  let waiting = false;
  const fill = (s: Pick<Scheduler, 'restart'>) => s.restart('embeddings', 'demand');
  return {
    get: (): EmbeddingEndpoint | null => current,
    /** The fill this change started (null: no change, or no scheduler yet). */
    set(endpoint: EmbeddingEndpoint | null): Promise<JobProgress> | null {
      if (JSON.stringify(endpoint) === JSON.stringify(current)) return null;
      current = endpoint;
      if (scheduler) return fill(scheduler);
      waiting = endpoint !== null;
      return null;
    },
    /** The fill an endpoint set earlier starts now (null: none was set). */
    attach(s: Pick<Scheduler, 'restart'>): Promise<JobProgress> | null {
      scheduler = s;
      const started = waiting ? fill(s) : null;
      waiting = false;
      return started;
    },
  };
}
