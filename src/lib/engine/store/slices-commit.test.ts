import { describe, expect, it } from 'vitest';
import type { SqlDriver } from './driver';
import { runInSlices, slowestSlices, type SliceTiming } from './slices';

/**
 * Issue 16: a slice's budget bounded its steps, not its COMMIT, where FTS5 writes the slice's pending full-text
 * rows — an import's slices waited 20 ms of steps plus up to 20 ms of COMMIT natively (~70 ms in the browser).
 * With budgetCoversCommit the steps stop early by the share the COMMIT took before. Here a clock that moves 1 ms
 * a step, and a COMMIT that costs half a millisecond per step of its slice (as a flush of its rows would).
 */
function fakeDriver(clock: { t: number }, commitPerStep: number, stepsInSlice: () => number): SqlDriver {
  return {
    kind: 'better-sqlite3',
    exec: () => undefined,
    run: () => ({ changes: 0 }),
    all: () => [],
    get: () => undefined,
    transaction: <T>(fn: () => T): T => {
      const r = fn();
      clock.t += stepsInSlice() * commitPerStep;
      return r;
    },
    close: () => undefined,
  };
}

async function run(budgetCoversCommit: boolean) {
  const clock = { t: 0 };
  let inSlice = 0;
  let left = 600;
  const driver = fakeDriver(clock, 0.5, () => inSlice);
  const slices: { steps: number; ms: number }[] = [];
  await runInSlices({
    driver,
    budgetMs: 20,
    now: () => clock.t,
    budgetCoversCommit,
    step: () => {
      clock.t += 1;
      inSlice++;
      return --left > 0;
    },
    onSlice: (ms, timing) => {
      slices.push({ steps: timing.steps, ms });
      inSlice = 0;
    },
  });
  return { slices, done: left === 0 };
}

describe('a slice whose budget covers its COMMIT (issue 16)', () => {
  it('without it, every slice runs its whole budget of steps and then the COMMIT on top', async () => {
    const { slices, done } = await run(false);
    expect(done).toBe(true);
    for (const s of slices.slice(0, -1)) expect(s.ms).toBe(30);
  });

  it('with it, the steps stop early by the COMMIT’s share, so a slice stays near its budget, and all the work is done', async () => {
    const { slices, done } = await run(true);
    expect(done).toBe(true);
    // The first slice cannot know the COMMIT's cost; after a few, steps + COMMIT stay within the budget and
    // one step (the step that crosses the line, with its share of the COMMIT).
    for (const s of slices.slice(3, -1)) expect(s.ms).toBeLessThanOrEqual(20 + 1.5);
    expect(Math.max(...slices.slice(3, -1).map((s) => s.ms))).toBeLessThan(Math.min(...(await run(false)).slices.slice(0, -1).map((s) => s.ms)));
    // Still real work per slice: the COMMIT may shorten the steps by at most three quarters.
    for (const s of slices.slice(0, -1)) expect(s.steps).toBeGreaterThanOrEqual(5);
  });
});

describe('a job reports its slowest slices (issue 16: which slice a long wait sat behind)', () => {
  it('keeps the few slowest, slowest first, in tenths of a ms, whatever order they came in', () => {
    const keep = slowestSlices(3);
    const t = (ms: number, commitMs = 0): SliceTiming => ({ at: ms * 1000, ms, beginMs: 0.04, steps: 2, stepsMs: ms - commitMs, slowestStepMs: 1.26, commitMs });
    for (const ms of [5, 41.23, 3, 90.06, 12, 60]) keep.note(t(ms, ms / 2));
    const list = keep.list();
    expect(list.map((s) => s.ms)).toEqual([90.1, 60, 41.2]);
    expect(list[0]).toMatchObject({ at: 90060, steps: 2, commitMs: 45, slowestStepMs: 1.3, beginMs: 0 });
  });
});
