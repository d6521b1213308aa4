import { describe, expect, it } from 'vitest';
import type { SqlDriver } from './driver';
import { runInSlices } from './slices';

/** A driver whose transactions just run (the page counter stands in for the OPFS counters). */
const driver = { transaction: <T>(fn: () => T): T => fn() } as unknown as SqlDriver;

/**
 * `total` steps, step i writing `pagesOf(i)` pages and taking 1 ms of an injected clock: the time budget
 * (8 ms) alone ends a slice after 8 steps.
 */
async function run(pagesOf: (i: number) => number, total: number, pageBudget?: number, phaseOf?: (i: number) => unknown) {
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
    ...(phaseOf ? { phase: () => phaseOf(i) } : {}),
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

  it('steps writing 30 pages each: the first slice runs one step (it shows what a step writes), then 2 steps a slice under 64 pages', async () => {
    const { steps, pagesBySlice } = await run(() => 30, 24, 64);
    expect(steps).toEqual([1, ...Array(11).fill(2), 1]);
    // The first slice included (issue 16: it ran to the time budget, 8 steps, 240 pages).
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

  it('light steps keep the time budget; without phases, the slice after the steps turn heavy shrinks to the budget', async () => {
    const { steps, pagesBySlice } = await run((i) => (i < 16 ? 1 : 40), 30, 64);
    // One step, 2 light slices, the one that meets the heavy steps (it cannot know yet: 8 × 40 pages), then 1 step (40 pages) a slice.
    expect(steps).toEqual([1, 8, 8, 8, 1, 1, 1, 1, 1]);
    expect(pagesBySlice.slice(4).every((p) => p <= 64)).toBe(true);
    expect(Math.max(...pagesBySlice)).toBeGreaterThan(64);
  });

  it('with phases, a slice ends where the phase changes and the next phase begins with one step: no slice passes the budget', async () => {
    // The same steps as above, the pass saying which ones are the heavy phase (a reindex's next table, an import's).
    const { steps, pagesBySlice } = await run((i) => (i < 16 ? 1 : 40), 30, 64, (i) => (i < 16 ? 'light' : 'heavy'));
    // One step, 8, 7 (the light phase ends at step 16), then the heavy phase: one step, which shows 40 pages a step.
    expect(steps).toEqual([1, 8, 7, ...Array(14).fill(1)]);
    expect(Math.max(...pagesBySlice)).toBeLessThanOrEqual(64);
    expect(pagesBySlice.reduce((a, b) => a + b, 0)).toBe(16 + 14 * 40);
  });

  it('a phase of steps that write nothing: 1, 2, 4 … steps a slice (they may start writing), up to the time budget', async () => {
    const { steps } = await run(() => 0, 20, 64);
    expect(steps).toEqual([1, 2, 4, 8, 5]);
  });

  it('a step heavier than the whole budget still runs, one a slice (the work never stalls)', async () => {
    const { steps } = await run((i) => (i < 8 ? 1 : 500), 20, 64);
    expect(steps).toEqual([1, 8, ...Array(11).fill(1)]);
  });

  it('where pages are not counted, the first slice keeps the time budget', async () => {
    let clock = 0;
    let left = 20;
    const steps: number[] = [];
    await runInSlices({ driver, budgetMs: 8, now: () => clock, pageBudget: 64, pagesWritten: () => null, step: () => ((clock += 1), --left > 0), onSlice: (_ms, t) => steps.push(t.steps) });
    expect(steps).toEqual([8, 8, 4]);
  });
});
