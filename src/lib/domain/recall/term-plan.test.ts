import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from './config';
import { estimateMatches, planTerms, rarityWeight, type TermCount } from './term-plan';

const config = DEFAULT_RETRIEVAL_CONFIG;
const term = (keyword: string, turns: number): TermCount => ({ keyword, match: `"${keyword}"`, turns });
const names = (list: readonly TermCount[]) => list.map((t) => t.keyword);

describe('estimateMatches', () => {
  it.each([
    ['below the cap the count is exact', 40, { cap: 128, lowest: 10, newestId: 1000 }, 40],
    ['at the cap, scaled by the share of the history the newest matches covered', 128, { cap: 128, lowest: 901, newestId: 1000 }, 1280],
    ['never below what was counted', 128, { cap: 128, lowest: 1, newestId: 1000 }, 128],
    ['without a lowest rowid, what was counted', 128, { cap: 128, lowest: null, newestId: 1000 }, 128],
  ])('%s', (_, counted, opts, want) => {
    expect(estimateMatches(counted, opts)).toBe(want);
  });
});

describe('planTerms', () => {
  it.each([
    ['a short history: every term is rare', [term('dance', 90), term('style', 12)], { rare: ['dance', 'style'], common: [] }],
    ['a specific word in full, a topic word windowed', [term('renderWebhook', 529), term('内存', 3305)], { rare: ['renderWebhook'], common: ['内存'] }],
    ['very common words are windowed too, never dropped', [term('内存', 3305), term('问题', 16_955)], { rare: [], common: ['内存', '问题'] }],
    ['a term no turn holds is left out', [term('nowhere', 0), term('kafka', 3)], { rare: ['kafka'], common: [] }],
  ])('%s', (_, counts, want) => {
    const plan = planTerms(counts, config);
    expect({ rare: names(plan.rare), common: names(plan.common) }).toEqual(want);
  });
});

describe('rarityWeight', () => {
  it('weighs a rarer term more, and never divides by zero', () => {
    expect(rarityWeight(10, 1000)).toBeGreaterThan(rarityWeight(500, 1000));
    expect(rarityWeight(0, 0)).toBeCloseTo(Math.log(2), 10);
  });
});
