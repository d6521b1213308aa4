import { describe, expect, it } from 'vitest';
import { tokenBar } from './token-bar';

describe('a layer token bar', () => {
  it.each([
    { tokens: 0, budget: 600, want: { fill: 0, percent: 0, over: false, overBy: 0 } },
    { tokens: 150, budget: 600, want: { fill: 25, percent: 25, over: false, overBy: 0 } },
    { tokens: 1, budget: 3, want: { fill: 33.3, percent: 33, over: false, overBy: 0 } },
    { tokens: 600, budget: 600, want: { fill: 100, percent: 100, over: false, overBy: 0 } },
    { tokens: 900, budget: 600, want: { fill: 100, percent: 150, over: true, overBy: 300 } },
    { tokens: 0, budget: 0, want: { fill: 0, percent: 0, over: false, overBy: 0 } },
    { tokens: 12, budget: 0, want: { fill: 100, percent: Infinity, over: true, overBy: 12 } },
  ])('$tokens of $budget', ({ tokens, budget, want }) => {
    expect(tokenBar(tokens, budget)).toEqual(want);
  });
});
