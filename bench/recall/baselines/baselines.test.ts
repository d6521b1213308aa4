import { describe, expect, it } from 'vitest';
import { BASELINES, fusedSearch, type BaselineIndex } from './index';

const EN = [
  { id: 'paint', text: 'I painted a sunrise over the lake last weekend.' },
  { id: 'kids', text: 'The kids and I went camping in the mountains.' },
  { id: 'group', text: 'I went to a chess club meetup yesterday and it was great.' },
];
const ZH = [
  { id: '1', text: 'Kiki在学校晚会上唱歌，感觉非常开心。' },
  { id: '2', text: 'Kiki在新开的冰淇淋店尝试了芒果口味的冰淇淋。' },
  { id: '3', text: 'Kiki和爸爸一起看了电影《星际穿越》。' },
];

describe.each(BASELINES.map((b) => [b.name, b] as const))('%s', (_name, baseline) => {
  it('puts the unit that shares the question’s words first (English)', async () => {
    const index = await baseline.build(EN, 'en');
    const hits = await index.search('When did she go to the chess club?', 10);
    expect(hits[0]?.id).toBe('group');
    expect(hits.every((h, i) => i === 0 || (hits[i - 1]?.score ?? 0) >= h.score)).toBe(true);
    index.close();
  });

  it('finds Chinese memories through character bigrams', async () => {
    const index = await baseline.build(ZH, 'zh');
    expect((await index.search('我想再吃一次冰淇淋', 10))[0]?.id).toBe('2');
    expect((await index.search('那部讲黑洞的电影', 10))[0]?.id).toBe('3');
    index.close();
  });

  it('returns nothing rather than everything for a query with no shared term', async () => {
    const index = await baseline.build(EN, 'en');
    expect(await index.search('xylophone', 10)).toEqual([]);
    index.close();
  });
});

describe('fusedSearch (several weighted queries, one ranking)', () => {
  const fake = (answers: Record<string, { id: string; score: number }[]>): BaselineIndex => ({
    search: (q) => answers[q] ?? [],
    close() {},
  });

  it('scales each query to its best hit, so the heavier query decides', async () => {
    const index = fake({ recent: [{ id: 'a', score: 2 }, { id: 'b', score: 1 }], older: [{ id: 'b', score: 100 }] });
    const hits = await fusedSearch(index, [{ text: 'recent', weight: 1 }, { text: 'older', weight: 0.5 }], 10);
    // a: 1·2/2 = 1; b: 1·1/2 + 0.5·100/100 = 1 → tie broken by id
    expect(hits.map((h) => [h.id, h.score])).toEqual([['a', 1], ['b', 1]]);
  });

  it('ignores a query that found nothing', async () => {
    const index = fake({ q: [{ id: 'a', score: 3 }] });
    expect(await fusedSearch(index, [{ text: 'q', weight: 1 }, { text: 'none', weight: 1 }], 10)).toEqual([{ id: 'a', score: 1 }]);
  });
});
