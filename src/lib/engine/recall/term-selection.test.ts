import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from '../../domain/recall/config';
import { selectTerms } from './term-selection';
import type { TurnIndex } from './turn-index';

/** An index of 1,000 turns where every term matches 10 (rare: searched in full). */
const index = {
  turnCountBound: () => 1000,
  newestMatches: () => ({ count: 10, lowest: 1 }),
  windowStart: () => null,
} as unknown as TurnIndex;

describe('selectTerms', () => {
  it('searches request-frame words in a lane of their own, at frameWeight, and weighs them so in coverage', () => {
    const out = selectTerms(['thinking', 'bread', 'sourdough', 'recommendations'], { index, config: DEFAULT_RETRIEVAL_CONFIG });
    // Lanes in the order their weight first occurs among the keywords.
    expect(out.lanes).toEqual([
      { match: '"thinking" OR "recommendations"', from: 0, weight: DEFAULT_RETRIEVAL_CONFIG.frameWeight },
      { match: '"bread" OR "sourdough"', from: 0, weight: 1 },
    ]);
    const weight = (k: string) => out.weighted.find((t) => t.keyword === k)?.weight ?? 0;
    expect(weight('thinking') / weight('bread')).toBeCloseTo(DEFAULT_RETRIEVAL_CONFIG.frameWeight, 10);
  });

  it('searches every form of an irregular verb as one term', () => {
    const out = selectTerms(['write', 'screenplay'], { index, config: DEFAULT_RETRIEVAL_CONFIG });
    expect(out.lanes).toEqual([{ match: '"write" OR "wrote" OR "written" OR "screenplay"', from: 0, weight: 1 }]);
    expect(out.weighted[0]).toMatchObject({ keyword: 'write', forms: ['wrote', 'written'] });
    const plain = selectTerms(['write'], { index, config: { ...DEFAULT_RETRIEVAL_CONFIG, verbForms: false } });
    expect(plain.lanes[0]?.match).toBe('"write"');
  });

  it('keeps one lane per lane kind when frame words are off', () => {
    const out = selectTerms(['thinking', 'coffee'], { index, config: { ...DEFAULT_RETRIEVAL_CONFIG, frameWords: false } });
    expect(out.lanes).toEqual([{ match: '"thinking" OR "coffee"', from: 0, weight: 1 }]);
  });

  it('searches a category’s kinds in a lane of their own at hyponymWeight, out of coverage, and not when they are too common', () => {
    const categories = [{ category: 'board game', keywords: ['board', 'games'], kinds: ['chess', 'backgammon', 'games'] }];
    const out = selectTerms(['board', 'games', 'played'], { index, config: DEFAULT_RETRIEVAL_CONFIG, categories });
    expect(out.kinds).toEqual(['chess', 'backgammon']);
    expect(out.lanes.at(-1)).toEqual({ match: '"chess" OR "backgammon"', from: 0, weight: DEFAULT_RETRIEVAL_CONFIG.hyponymWeight });
    expect(out.weighted.flatMap((t) => t.forms ?? [])).not.toContain('chess');
    // In 100,000 turns where the kinds match 128 of the newest 200: about 64,000 turns, more than the prune threshold.
    const big = { ...index, turnCountBound: () => 100_000, newestMatches: () => ({ count: 128, lowest: 99_800 }), windowStart: () => 99_000 } as unknown as TurnIndex;
    const common = selectTerms(['board', 'games'], { index: big, config: DEFAULT_RETRIEVAL_CONFIG, categories });
    expect(common.kinds).toEqual([]);
    expect(common.lanes.every((l) => l.weight === 1)).toBe(true);
  });
});
