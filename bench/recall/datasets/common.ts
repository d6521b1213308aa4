import type { RetrievalConfig } from '../../../src/lib/domain/recall/config';
import type { RecallHit } from '../../../src/lib/engine/recall/types';
import type { BenchEngine } from '../engine-host';
import type { ItemScores, Shown, Slot } from '../evaluate';

/** Messages of one session are stored this far apart (the data give one time per session). */
export const MESSAGE_GAP_MS = 30_000;

export interface DatasetRun {
  dataset: 'locomo' | 'longmemeval' | 'madial';
  items: ItemScores[];
  /** Milliseconds spent per phase / baseline (store, recall, each baseline's build + queries). */
  timings: Map<string, number>;
  notes: string[];
}

/**
 * The product's recall as the user meets it: `recall.search` with the question, asked once per k (the list a person
 * would see) and once for 50 (the labelled top-50 view).
 */
export async function productShown(engine: BenchEngine, query: string, limits: readonly number[], toSlot: (hit: RecallHit) => Slot): Promise<Shown> {
  const byK = new Map<number, Slot[]>();
  const conversationsByK = new Map<number, string[]>();
  for (const limit of limits) {
    const res = await engine.call('recall.search', { query, limit });
    byK.set(limit, res.results.map(toSlot));
    conversationsByK.set(limit, res.conversations.map((c) => c.conversationId));
  }
  const deepLimit = Math.max(...limits);
  return { byK, deep: byK.get(deepLimit) ?? [], conversationsByK };
}

/**
 * One pass of the product over stored data: the name its scores are reported under and the retrieval config the
 * engine reads for it (EngineEnv.retrieval — the app's own config object with some techniques switched off).
 */
export interface ProductPass {
  name: string;
  config: Partial<RetrievalConfig>;
}

/** The normal run: the product with its defaults, reported as `engram`. */
export const PRODUCT_PASSES: readonly ProductPass[] = [{ name: 'engram', config: {} }];

export interface RunOptions {
  /** Product passes over the same stored data (the ablation); default: the product as shipped. */
  passes?: readonly ProductPass[];
  /** Run the peer baselines too (default true; the ablation skips them). */
  baselines?: boolean;
}

/** Points the engine's live retrieval config at a pass (the engine reads it on every call). */
export function applyPass(live: Partial<RetrievalConfig>, pass: ProductPass): void {
  for (const key of Object.keys(live) as (keyof RetrievalConfig)[]) delete live[key];
  Object.assign(live, pass.config);
}
