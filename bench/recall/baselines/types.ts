import type { BaselineLanguage } from './tokenize';

/** One retrievable unit (a turn, a memory), the same units the product is scored on. */
export interface BaselineDoc {
  id: string;
  text: string;
}

/** Higher is better, whatever the engine's own convention (FTS5's bm25() is negated). */
export interface ScoredId {
  id: string;
  score: number;
}

export interface BaselineIndex {
  search(query: string, limit: number): ScoredId[] | Promise<ScoredId[]>;
  close(): void;
}

export interface Baseline {
  /** The name in the JSON `baselines` object. */
  name: string;
  build(docs: readonly BaselineDoc[], language: BaselineLanguage): Promise<BaselineIndex>;
}
