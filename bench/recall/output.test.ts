import { describe, expect, it } from 'vitest';
import type { ItemScores } from './evaluate';
import { changedItems, itemRows } from './output';

const item = (group: string, category: string, score: number): ItemScores => ({
  group,
  category,
  systems: { engram: { shown: { 'recall@5': score }, top50: { 'recall@5': 1 } }, 'fts5-bm25': { shown: { 'recall@5': 0 }, top50: {} } },
});

describe('per-item rows (--per-item)', () => {
  it('keep each question’s place, group, category and the product’s k-shown scores, rounded', () => {
    expect(itemRows({ items: [item('conv-1', 'multi-hop', 1 / 3), item('conv-2', 'temporal', 1)] })).toEqual([
      { i: 0, group: 'conv-1', category: 'multi-hop', scores: { 'recall@5': 0.3333 } },
      { i: 1, group: 'conv-2', category: 'temporal', scores: { 'recall@5': 1 } },
    ]);
  });

  it('compared, name exactly the questions a change won or lost', () => {
    const before = itemRows({ items: [item('q1', 'a', 1), item('q2', 'b', 0), item('q3', 'c', 1)] });
    const after = itemRows({ items: [item('q1', 'a', 0), item('q2', 'b', 0.5), item('q3', 'c', 1)] });
    expect(changedItems(before, after, 'recall@5')).toEqual([
      { i: 0, group: 'q1', category: 'a', before: 1, after: 0 },
      { i: 1, group: 'q2', category: 'b', before: 0, after: 0.5 },
    ]);
  });

  it('refuse to compare files of different questions', () => {
    const a = itemRows({ items: [item('q1', 'a', 1)] });
    expect(() => changedItems(a, itemRows({ items: [item('q9', 'a', 1)] }), 'recall@5')).toThrow(/not the same questions/);
    expect(() => changedItems(a, [], 'recall@5')).toThrow(/differ in length/);
  });
});
