import { describe, expect, it } from 'vitest';
import { extractSymbols } from '../../src/lib/domain/text/symbols';
import { generateMemories, generateQueries, generateTurns } from './corpus';

const take = (seed: number, count: number) => [...generateTurns({ seed, count })];

describe('generated corpus', () => {
  it('is the same for the same seed, and a small corpus is the start of a large one', () => {
    expect(take(1, 300)).toEqual(take(1, 300));
    expect(take(1, 1000).slice(0, 300)).toEqual(take(1, 300));
    expect(take(2, 50)).not.toEqual(take(1, 50));
  });

  it('alternates user and assistant, starting each session with the user', () => {
    const turns = take(3, 2000);
    expect(turns).toHaveLength(2000);
    for (const [i, t] of turns.entries()) {
      const prev = turns[i - 1];
      if (!prev || prev.session !== t.session) expect(t.role).toBe('user');
      else expect(t.role).not.toBe(prev.role);
    }
    expect(new Set(turns.map((t) => t.session)).size).toBeGreaterThan(10);
  });

  it('mixes Chinese and English turns, and the product finds code symbols in them', () => {
    const turns = take(4, 1000);
    const zh = turns.filter((t) => /\p{Script=Han}/u.test(t.content)).length;
    expect(zh / turns.length).toBeGreaterThan(0.3);
    expect(zh / turns.length).toBeLessThan(0.8);
    const withSymbols = turns.filter((t) => extractSymbols(t.content).length > 0).length;
    expect(withSymbols / turns.length).toBeGreaterThan(0.6);
  });

  it('has realistic sizes: short questions, longer answers', () => {
    const turns = take(5, 2000);
    const avg = (role: string) => {
      const mine = turns.filter((t) => t.role === role);
      return mine.reduce((s, t) => s + t.content.length, 0) / mine.length;
    };
    expect(avg('user')).toBeGreaterThan(15);
    expect(avg('user')).toBeLessThan(120);
    expect(avg('assistant')).toBeGreaterThan(avg('user') * 2);
  });

  it('queries cover four kinds equally and memories are facts and preferences', () => {
    const q = generateQueries({ seed: 1, perKind: 10 });
    expect(q).toHaveLength(40);
    for (const kind of ['symbol', 'zh', 'en', 'mixed']) expect(q.filter((x) => x.kind === kind)).toHaveLength(10);
    const m = generateMemories({ seed: 1, count: 100 });
    expect(new Set(m.map((x) => x.category))).toEqual(new Set(['fact', 'preference']));
    expect(new Set(m.map((x) => x.content)).size).toBe(100);
  });
});
