import { EngineError } from '../errors';
import { modelError, toModelFailure } from './failures';
import type { ConnectionReport, ModelProvider, StreamEvent } from './types';

/**
 * No model at all (ARCHITECTURE §7). The app still records, remembers and summarises with rule-based code
 * elsewhere in domain/; this provider only answers, plainly, that replies need a model. Callers check
 * `canGenerate` before offering generation, and every generating call fails the same way.
 */
export function createHeuristicProvider(): ModelProvider {
  const noModel = (): EngineError => modelError('no-model-configured', { origin: '', model: '', hasKey: false });

  return {
    kind: 'heuristic',
    canGenerate: false,
    chatStream(): AsyncIterable<StreamEvent> {
      return {
        // Fails on first use, as a stream from a dead server would.
        async *[Symbol.asyncIterator]() {
          throw noModel();
        },
      };
    },
    chat: async () => {
      throw noModel();
    },
    json: async () => {
      throw noModel();
    },
    // Semantic similarity falls back to lexical when this throws (ARCHITECTURE §5).
    embed: async () => {
      throw noModel();
    },
    testConnection: async (): Promise<ConnectionReport> => ({
      ok: false,
      models: [],
      modelFound: null,
      latencyMs: 0,
      error: toModelFailure(noModel()),
    }),
  };
}
