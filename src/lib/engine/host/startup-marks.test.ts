import { describe, expect, it } from 'vitest';
import { markStartup, startupMarks } from './startup-marks';

describe('start-up marks (the speed benchmark’s cold start)', () => {
  it('keeps each stage’s first time, and makes it a performance mark a Chrome trace shows at the same instant', () => {
    markStartup('pool');
    const first = startupMarks().pool!;
    markStartup('pool');
    expect(startupMarks().pool).toBe(first);
    const entries = performance.getEntriesByName('engram:pool', 'mark');
    expect(entries).toHaveLength(1);
    expect(performance.timeOrigin + entries[0]!.startTime).toBe(first);
  });
});
