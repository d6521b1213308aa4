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

  it('steps writing 30 pages each: the first slice takes one step (it shows what a step writes), then 2 steps a slice — every slice under 64 pages', async () => {
    const { steps, pagesBySlice } = await run(() => 30, 24, 64);
    expect(steps).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]);
    // The first slice too (it ran to the time budget before: 8 steps, 240 pages).
    expect(Math.max(...pagesBySlice)).toBeLessThanOrEqual(64);
    expect(pagesBySlice.reduce((a, b) => a + b, 0)).toBe(24 * 30);
  });

  it('steps that write nothing at first (a scan): 1, 2, 4 … steps a slice until one writes, then the budget', async () => {
    const { steps, pagesBySlice } = await run((i) => (i < 3 ? 0 : 30), 24, 64);
    // 1 and 2 steps write nothing; the 4-step slice meets the 30-page steps (it cannot know yet); then 2 a slice.
    expect(steps.slice(0, 5)).toEqual([1, 2, 4, 2, 2]);
    expect(pagesBySlice.slice(3).every((p) => p <= 64)).toBe(true);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(24);
  });

  it('light steps keep the time budget; the slice after the steps turn heavy shrinks to the budget', async () => {
    const { steps, pagesBySlice } = await run((i) => (i < 16 ? 1 : 40), 30, 64);
    // One step (1 page) shows the steps are light; 2 light slices, the one that meets the heavy steps (it cannot
    // know yet: 8 × 40 pages), then 1 step (40 pages) a slice.
    expect(steps).toEqual([1, 8, 8, 8, 1, 1, 1, 1, 1]);
    expect(pagesBySlice.slice(4).every((p) => p <= 64)).toBe(true);
  });

  it('a step heavier than the whole budget still runs, one a slice (the work never stalls)', async () => {
    const { steps } = await run((i) => (i < 8 ? 1 : 500), 20, 64);
    // The 8-step slice meets the first 500-page step; from then on one step a slice.
    expect(steps).toEqual([1, 8, ...Array<number>(11).fill(1)]);
  });

  it('where pages are not counted (Node), the first slice runs to the time budget as before', async () => {
    let clock = 0;
    let i = 0;
    const steps: number[] = [];
    await runInSlices({ driver, budgetMs: 8, now: () => clock, pageBudget: 64, pagesWritten: () => null, step: () => ((clock += 1), ++i < 16), onSlice: (_ms, t) => steps.push(t.steps) });
    expect(steps).toEqual([8, 8]);
  });
});
