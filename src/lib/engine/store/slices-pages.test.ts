import { describe, expect, it } from 'vitest';
import type { SqlDriver } from './driver';
import { runInSlices } from './slices';

/** A driver whose transactions just run (the page counter stands in for the OPFS counters). */
const driver = { transaction: <T>(fn: () => T): T => fn() } as unknown as SqlDriver;

/**
 * `total` steps, step i writing `pagesOf(i)` pages and taking 1 ms of an injected clock: the time budget
 * (8 ms) alone ends a slice after 8 steps.
 */
async function run(pagesOf: (i: number) => number, total: number, pageBudget?: number) {
  let pages = 0;
  let clock = 0;
  let i = 0;
  const steps: number[] = [];
  const pagesBySlice: number[] = [];
  let before = 0;
  await runInSlices({
    driver,
    budgetMs: 8,
    now: () => clock,
    ...(pageBudget ? { pageBudget } : {}),
    pagesWritten: () => pages,
    step: () => {
      pages += pagesOf(i);
      clock += 1;
      return ++i < total;
    },
    onSlice: (_ms, t) => {
      steps.push(t.steps);
      pagesBySlice.push(pages - before);
      before = pages;
    },
  });
  return { steps, pagesBySlice };
}

describe('slices bounded by the pages they write (issue 19: a COMMIT costs by the pages it writes)', () => {
  it('without a page budget the time budget alone ends a slice', async () => {
    expect((await run(() => 30, 24)).steps).toEqual([8, 8, 8]);
  });

  it('steps writing 30 pages each: after the first slice (which shows what a step writes), 2 steps a slice under 64 pages', async () => {
    const { steps, pagesBySlice } = await run(() => 30, 24, 64);
    expect(steps).toEqual([8, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(Math.max(...pagesBySlice.slice(1))).toBeLessThanOrEqual(64);
    expect(pagesBySlice.reduce((a, b) => a + b, 0)).toBe(24 * 30);
  });

  it('light steps keep the time budget; the slice after the steps turn heavy shrinks to the budget', async () => {
    const { steps, pagesBySlice } = await run((i) => (i < 16 ? 1 : 40), 30, 64);
    // 2 light slices, the one that meets the heavy steps (it cannot know yet: 8 × 40 pages), then 1 step (40 pages) a slice.
    expect(steps).toEqual([8, 8, 8, 1, 1, 1, 1, 1, 1]);
    expect(pagesBySlice.slice(3).every((p) => p <= 64)).toBe(true);
  });

  it('a step heavier than the whole budget still runs, one a slice (the work never stalls)', async () => {
    const { steps } = await run((i) => (i < 8 ? 1 : 500), 20, 64);
    expect(steps).toEqual([8, 8, 1, 1, 1, 1]);
  });
});
