import { retrievalConfig } from '../../domain/recall/config';
import { lexicalStage, recallFromLexical, type RecallInput } from '../../domain/recall/pipeline';
import type { EngineEnv } from '../env';
import type { SemanticService } from '../embeddings/semantic-service';
import { createTurnIndex } from './turn-index';
import type { RecallResponse } from './types';

export type { RecallInput };

/**
 * Seed 002 memory_recall: the pipeline of domain/recall/pipeline.ts over this database's turn index, with the
 * question's nearest turns by meaning when an embedding model is configured (embeddings/semantic-service.ts).
 * Built once per open database (services.ts) and shared by `recall.search` and the context build's L4. Its one
 * entry point is asynchronous and does its own preparation (the question's embedding), so there is nothing a
 * caller must remember to await first.
 */
export function createRecallService(deps: { env: Pick<EngineEnv, 'driver' | 'clock' | 'retrieval'>; semantic: SemanticService }) {
  const source = createTurnIndex(deps.env.driver);
  return {
    async recall(input: RecallInput): Promise<RecallResponse> {
      const t0 = performance.now();
      const config = retrievalConfig(deps.env.retrieval);
      const now = deps.env.clock.now();
      // The question's embedding is asked for first; the lexical lanes run while it is on its way (no wait in series).
      const pending = deps.semantic.lane('turn', input.query);
      const lexical = lexicalStage(input, { source, now, config });
      const t1 = performance.now();
      const lane = await pending;
      const t2 = performance.now();
      // How the lane lined up with the lexical lanes (the speed benchmark's profile of the meaning lane).
      const info = lane.info.timing ? { ...lane.info, timing: { ...lane.info.timing, lexicalMs: t1 - t0, waitMs: t2 - t1 } } : lane.info;
      const out = recallFromLexical(lexical, { source, now, config, semantic: { turns: lane.hits, info } });
      return { ...out, latencyMs: performance.now() - t0 };
    },
  };
}

export type RecallService = ReturnType<typeof createRecallService>;
