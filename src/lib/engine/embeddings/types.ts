import type { EmbeddingKind } from './embedding-store';

export interface EmbeddingStatus {
  /** The embedding model in force (null: none configured — meaning-based recall is off). */
  model: string | null;
  /**
   * off       no embedding model configured: recall is lexical
   * filling   vectors are being made in the background (recall uses those already made)
   * ready     every turn and memory has its vector
   * degraded  the endpoint failed the last question (reason): recall is lexical until it answers again
   */
  state: 'off' | 'filling' | 'ready' | 'degraded';
  total: number;
  embedded: number;
  reason: string | null;
}

export interface PendingTexts {
  items: { kind: EmbeddingKind; id: number; text: string }[];
}

export interface StoreResult {
  stored: number;
  /** Vectors of other models removed (a model change re-embeds). */
  replacedModels: number;
}

/**
 * What `embeddings.prepare` did with a question being typed:
 * off       no embedding model configured (or meaning-based recall weighted 0): nothing asked
 * remote    the endpoint is not on this device: nothing is sent before the person sends it
 * degraded  the endpoint failed lately (or failed now): nothing asked until it is retried
 * cached    the question's vector was already known
 * embedded  the question's vector was asked for now and is cached for its recall
 */
export type PrepareState = 'off' | 'remote' | 'degraded' | 'cached' | 'embedded';
