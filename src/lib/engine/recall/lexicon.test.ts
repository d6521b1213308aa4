import { describe, expect, it, vi } from 'vitest';

describe('loadHyponyms', () => {
  it('reads the table once and shares it between questions', async () => {
    vi.resetModules();
    const { loadHyponyms } = await import('./lexicon');
    const load = vi.fn(async () => ({ HYPONYMS: 'board game\tchess backgammon' }));
    const first = await loadHyponyms(load);
    const second = await loadHyponyms(load);
    expect(first.get('board game')).toEqual(['chess', 'backgammon']);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a failed load gives an empty table for that question and is tried again by the next', async () => {
    vi.resetModules();
    const { loadHyponyms } = await import('./lexicon');
    const load = vi
      .fn<() => Promise<{ HYPONYMS: string }>>()
      .mockRejectedValueOnce(new Error('chunk missing'))
      .mockResolvedValueOnce({ HYPONYMS: 'pet\tdog cat' });
    expect((await loadHyponyms(load)).size).toBe(0);
    expect((await loadHyponyms(load)).get('pet')).toEqual(['dog', 'cat']);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
