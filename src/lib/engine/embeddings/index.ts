/**
 * Meaning-based recall (issue 18), wired once per open database:
 *
 *   embeddings.configure ─▶ semantic (endpoint in memory) ◀─ recall.search / memory.retrieve (lane)
 *   embeddings.pending / embeddings.store / embeddings.status ─▶ store (the embeddings table) ─▶ semantic.stored
 */
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS } from '../../domain/llm/settings';
import { retrievalConfig } from '../../domain/recall/config';
import type { EngineEnv } from '../env';
import { createEmbeddingStore } from './embedding-store';
import { createSemanticService, type EmbedFn, type EmbeddingEndpoint } from './semantic-service';
import { registeredVectorWorker, type VectorWorkerFactory } from './vector-search-client';

/** The configured endpoint's POST /embeddings (the same provider the jobs worker fills vectors with). */
export const embedWithProvider: EmbedFn = (endpoint: EmbeddingEndpoint, texts, opts) =>
  createProvider({
    ...DEFAULT_MODEL_SETTINGS,
    provider: 'openai-compatible',
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    embeddingModel: endpoint.model,
    timeoutMs: Math.max(1000, opts.timeoutMs),
  }).embed(texts);

export function createEmbeddingServices(env: Pick<EngineEnv, 'driver' | 'clock' | 'log' | 'retrieval'> & { embed?: EmbedFn; vectorWorker?: VectorWorkerFactory | null }) {
  const store = createEmbeddingStore(env.driver);
  // The search worker embeds questions with embedWithProvider itself: an `embed` override (tests, the recall
  // benchmark in Node) keeps every search in this thread, where that override is the one used.
  const vectorWorker = env.vectorWorker !== undefined ? env.vectorWorker : env.embed ? null : registeredVectorWorker();
  const semantic = createSemanticService({ store, log: env.log, now: () => env.clock.now(), config: () => retrievalConfig(env.retrieval), embed: env.embed ?? embedWithProvider, vectorWorker });
  return { store, semantic };
}

export type EmbeddingServices = ReturnType<typeof createEmbeddingServices>;
