import { describe, expect, it } from 'vitest';
import { readClock, sampleEpochMs, type CpuProfile } from './profile-clock';

describe('sampleEpochMs', () => {
  // A made-up profile: started at monotonic 5,000,000 µs, samples 1 ms, 0.25 ms and 2 ms apart after a first
  // delta of 0.5 ms; the page's epoch clock read 1,700,000,000,000 ms when the monotonic clock stood at 5,010,000 µs.
  const profile: CpuProfile = { startTime: 5_000_000, samples: [1, 2, 3, 4], timeDeltas: [500, 1000, 250, 2000] };
  const clock = { epochMs: 1_700_000_000_000, monotonicUs: 5_010_000, halfSpanUs: 100 };

  it('puts each sample at the profile start plus the deltas so far, on the epoch clock', () => {
    // The profile began 10 ms before the clock reading: epoch 1,699,999,999,990 ms.
    expect(sampleEpochMs(profile, clock).map((t) => t - 1_699_999_999_990)).toEqual([0.5, 1.5, 1.75, 3.75]);
  });

  it('does not start the samples at the clock reading (a profile started before the clock was read)', () => {
    expect(sampleEpochMs(profile, clock)[0]).toBeLessThan(clock.epochMs);
  });

  it('refuses a profile whose samples and deltas differ in number', () => {
    expect(() => sampleEpochMs({ ...profile, timeDeltas: [1] }, clock)).toThrow(/timeDeltas/);
  });
});

describe('readClock', () => {
  it('keeps the reading with the shortest round trip and dates it at its middle', async () => {
    // Monotonic reads: 0, 40 (span 40) · 100, 110 (span 10) · 200, 230 (span 30).
    const ticks = [0, 40, 100, 110, 200, 230];
    const epochs = [1000, 2000, 3000];
    const got = await readClock(async () => epochs.shift()!, () => ticks.shift()!, 3);
    expect(got).toEqual({ epochMs: 2000, monotonicUs: 105, halfSpanUs: 5 });
  });
});
