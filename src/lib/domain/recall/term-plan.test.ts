import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_CONFIG } from './config';
import { estimateMatches, planTerms, pruneThreshold, rareCap, rarityWeight, type TermCount } from './term-plan';

const config = DEFAULT_RETRIEVAL_CONFIG;
const term = (keyword: string, turns: number): TermCount => ({ keyword, match: `"${keyword}"`, turns });
const names = (list: readonly TermCount[]) => list.map((t) => t.keyword);

describe('pruneThreshold', () => {
  it.each([
    // [turns in the history, threshold]: never below the rare cap, pruneShare of all turns, at most 4 budgets
    [600, rareCap(config)],
    [20_000, 2_000],
    [100_000, 4 * config.rankBudget],
    [1_000_000, 4 * config.rankBudget],
  ])('%i turns → %i', (total, want) => {
    expect(pruneThreshold(total, config)).toBe(want);
  });
});

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
    ['a short history: every term is rare, nothing pruned', 600, [term('dance', 90), term('style', 12)], { rare: ['dance', 'style'], common: [], pruned: [] }],
    ['a long history: a specific word in full, a topic word windowed', 100_000, [term('renderWebhook', 529), term('内存', 3305)], { rare: ['renderWebhook'], common: ['内存'], pruned: [] }],
    ['a word in a sixth of all turns goes while others remain', 100_000, [term('内存', 3305), term('问题', 16_955)], { rare: [], common: ['内存'], pruned: ['问题'] }],
    ['… and stays when nothing else is left', 100_000, [term('sync', 14_380), term('worker', 10_605)], { rare: [], common: ['sync', 'worker'], pruned: [] }],
    ['a term no turn holds is left out', 100_000, [term('nowhere', 0), term('kafka', 3)], { rare: ['kafka'], common: [], pruned: [] }],
  ])('%s', (_, totalTurns, counts, want) => {
    const plan = planTerms(counts, { totalTurns, config });
    expect({ rare: names(plan.rare), common: names(plan.common), pruned: names(plan.pruned) }).toEqual(want);
  });

  it('prunes nothing when term pruning is switched off', () => {
    const plan = planTerms([term('内存', 3305), term('问题', 16_955)], { totalTurns: 100_000, config: { ...config, termPruning: false } });
    expect(names(plan.pruned)).toEqual([]);
    expect(names(plan.common)).toEqual(['内存', '问题']);
  });
});

describe('rarityWeight', () => {
  it('weighs a rarer term more, and never divides by zero', () => {
    expect(rarityWeight(10, 1000)).toBeGreaterThan(rarityWeight(500, 1000));
    expect(rarityWeight(0, 0)).toBeCloseTo(Math.log(2), 10);
  });
});
