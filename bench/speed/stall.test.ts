import { describe, expect, it } from 'vitest';
import type { SliceTiming } from '../../src/lib/engine/store/slices';
import { sliceBehindWorstWait, type StallReport } from './stall';

const report = (worst: { at: number; waitMs: number }[]): StallReport => ({ job: 'reindex', jobMs: 1000, startedAt: 0, probes: 10, maxWaitMs: worst[0]?.waitMs ?? 0, p95WaitMs: 5, detail: {}, worst });
const slice = (at: number, ms: number, parts: Partial<SliceTiming> = {}): SliceTiming => ({ at, ms, beginMs: 0, steps: 3, stepsMs: ms - 1, slowestStepMs: 4, commitMs: 1, ...parts });

describe('what the longest wait of a job sat behind (issue 16)', () => {
  it('names the slice that overlapped the longest wait, with its steps and COMMIT', () => {
    const r = report([{ at: 1000, waitMs: 90 }, { at: 500, waitMs: 40 }]);
    const slices = [slice(480, 45), slice(1010, 85, { steps: 7, slowestStepMs: 60, commitMs: 12 })];
    expect(sliceBehindWorstWait(r, slices)).toEqual({ 'slice ms': 85, steps: 7, 'slowest step ms': 60, 'commit ms': 12 });
  });

  it('says when no reported slice overlapped it, and adds nothing without slices or waits', () => {
    expect(sliceBehindWorstWait(report([{ at: 1000, waitMs: 90 }]), [slice(2000, 80)])).toEqual({ 'slice ms': -1 });
    expect(sliceBehindWorstWait(report([{ at: 1000, waitMs: 90 }]), [])).toEqual({});
    expect(sliceBehindWorstWait(report([]), [slice(2000, 80)])).toEqual({});
  });
});
