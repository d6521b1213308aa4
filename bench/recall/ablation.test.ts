import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG, MEMORY_TECHNIQUES, RECALL_TECHNIQUES, RETRIEVAL_TECHNIQUES } from '../../src/lib/domain/recall/config';
import { ablationPasses, ablationRows, ALL_TECHNIQUES, NO_TECHNIQUES } from './ablation';

describe('ablation passes', () => {
  it('switch each technique of the data set’s path off once, through the product config', () => {
    const turn = ablationPasses('locomo');
    expect(turn[0]).toEqual({ name: ALL_TECHNIQUES, config: {} });
    expect(turn.slice(1, -1).map((p) => Object.entries(p.config))).toEqual(RECALL_TECHNIQUES.map((t) => [[t, false]]));
    expect(turn.at(-1)?.name).toBe(NO_TECHNIQUES);
    expect(ablationPasses('madial').slice(1, -1).map((p) => Object.keys(p.config)[0])).toEqual([...MEMORY_TECHNIQUES]);
  });

  it('cover every technique the product has, each on by default', () => {
    expect([...RECALL_TECHNIQUES, ...MEMORY_TECHNIQUES].sort()).toEqual([...RETRIEVAL_TECHNIQUES].sort());
    for (const t of RETRIEVAL_TECHNIQUES) expect(DEFAULT_RETRIEVAL_CONFIG[t]).toBe(true);
  });

  it('report each pass against all techniques', () => {
    const t = ablationRows('madial', {
      n: 2,
      elapsed_ms: 1,
      passes: { [ALL_TECHNIQUES]: { 'recall@3': 0.5, 'recall@5': 0.6, 'recall@10': 0.7 }, 'without memoryGrams': { 'recall@3': 0.4, 'recall@5': 0.5, 'recall@10': 0.7 } },
    });
    expect(t.header).toEqual(['pass', 'recall@3', 'recall@5', 'recall@10', 'Δ recall@3']);
    expect(t.rows).toEqual([
      [ALL_TECHNIQUES, 0.5, 0.6, 0.7, ''],
      ['without memoryGrams', 0.4, 0.5, 0.7, '-0.100'],
    ]);
  });
});
