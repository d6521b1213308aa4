import { quantise } from '../../domain/embeddings/quantise';
import type { EmbeddingStatus } from '../embeddings/types';
import { contextQuery } from '../context/context-service';
import { toBytes } from '../embeddings/semantic-service';
import type { Services } from '../services';
import type { Handlers } from './index';

/** Meaning-based recall (issue 18): configuration from the page, the background fill's reads and writes. */
export function embeddingHandlers(s: Services): Handlers<'embeddings.configure' | 'embeddings.prepare' | 'embeddings.status' | 'embeddings.pending' | 'embeddings.store'> {
  const { store, semantic } = s.embeddings;
  const status = (): EmbeddingStatus => {
    const endpoint = semantic.endpoint();
    if (!endpoint) return { model: null, state: 'off', total: 0, embedded: 0, reason: null };
    const { total, embedded } = store.progress(endpoint.model);
    const failure = semantic.lastFailure();
    return { model: endpoint.model, state: failure ? 'degraded' : embedded >= total ? 'ready' : 'filling', total, embedded, reason: failure };
  };
  return {
    'embeddings.configure': (input) => {
      semantic.configure(input.endpoint);
      return status();
    },
    'embeddings.prepare': async (input) => ({
      state: await semantic.prepare(input.as === 'message' ? contextQuery(input.text, input.selectionText) : input.text),
    }),
    'embeddings.status': () => status(),
    'embeddings.pending': (input) => ({ items: store.pending(input.model, input.limit) }),
    'embeddings.store': (input) => {
      const items = input.items.map((i) => ({ kind: i.kind, id: i.id, vector: toBytes(quantise(i.vector)) }));
      const result = store.put(input.model, items, s.env.clock.now());
      semantic.stored(input.model, items, result.replacedModels);
      return result;
    },
  };
}
