/**
 * 003 memory provenance ("为什么这样写？"): a run's GenerationTrace is derived from what its context kept.
 * Every kept memory-like item — profile (L1), rules (L2), setting files (L3), memories and summaries
 * (L4), episodes (L4), the chat's or the chapter's working memory (L5) — is a reference; its influence weight is its share of those items' tokens.
 * A proxy, stated as one: the model's real attention is not observable, but what was not in the prompt
 * had no influence at all, and a bigger block had more room to shape the output.
 */
import type { LayerId, LayerResult } from '../../domain/context';
import type { TraceReference } from './types';

function typeOf(layer: LayerId, id: string): TraceReference['type'] | null {
  switch (layer) {
    case 'L1':
      return 'profile';
    case 'L2':
      return 'semantic';
    case 'L3':
      return 'file';
    case 'L4':
      return id.startsWith('memory:') ? 'memory' : id.startsWith('episode:') ? 'episode' : 'summary';
    case 'L5':
      return id === 'working-memory' || id.startsWith('working-memory:') ? 'working' : null;
    default:
      return null;
  }
}

export function deriveTrace(layers: readonly LayerResult[]): TraceReference[] {
  const refs: Omit<TraceReference, 'weight'>[] = [];
  const tokens: number[] = [];
  for (const layer of layers) {
    for (const item of layer.items) {
      const type = typeOf(layer.id, item.id);
      if (!type) continue;
      refs.push({ type, id: item.id, layer: layer.id });
      tokens.push(Math.max(1, item.tokens));
    }
  }
  const total = tokens.reduce((s, t) => s + t, 0);
  return refs
    .map((r, i) => ({ ...r, weight: Math.round(((tokens[i] as number) / total) * 1000) / 1000 }))
    .sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
}
