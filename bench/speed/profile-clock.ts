/**
 * A V8 CPU profile's samples on a page's clock (stall-profile.ts). A profile's `startTime` and its samples'
 * `timeDeltas` are µs on V8's monotonic clock (base::TimeTicks: CLOCK_MONOTONIC on Linux, the clock Node's
 * process.hrtime reads); the probe's waits and the worker's timeline are ms since the epoch (performance.timeOrigin
 * + now()). Before, stall-profile.ts put the first sample at a clock read taken after `Profiler.start` had
 * answered — a round trip (and, under load, the worker's thread getting to the command) late, so the samples sat
 * that much later than what they sampled.
 */
export interface CpuProfile {
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One reading of both clocks: the epoch ms a context gave and the monotonic µs at the same moment (± halfSpanUs). */
export interface ClockReading {
  epochMs: number;
  monotonicUs: number;
  halfSpanUs: number;
}

/**
 * Reads the context's epoch clock between two reads of the monotonic clock, `tries` times, and keeps the reading
 * with the shortest round trip (the monotonic time of the read is then known best: the middle of that round trip).
 */
export async function readClock(readEpochMs: () => Promise<number>, monotonicUs: () => number = () => Number(process.hrtime.bigint() / 1000n), tries = 7): Promise<ClockReading> {
  let best: ClockReading | null = null;
  for (let i = 0; i < tries; i++) {
    const before = monotonicUs();
    const epochMs = await readEpochMs();
    const after = monotonicUs();
    const reading = { epochMs, monotonicUs: (before + after) / 2, halfSpanUs: (after - before) / 2 };
    if (!best || reading.halfSpanUs < best.halfSpanUs) best = reading;
  }
  if (!best) throw new Error('readClock: tries must be at least 1');
  return best;
}

/** Each sample's time in epoch ms: the profile's own startTime plus the deltas so far, moved onto the epoch clock. */
export function sampleEpochMs(profile: CpuProfile, clock: ClockReading): number[] {
  if (profile.samples.length !== profile.timeDeltas.length) throw new Error(`profile: ${profile.samples.length} samples but ${profile.timeDeltas.length} timeDeltas`);
  const offsetMs = clock.epochMs - clock.monotonicUs / 1000;
  const out = new Array<number>(profile.samples.length);
  let us = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    us += profile.timeDeltas[i]!;
    out[i] = us / 1000 + offsetMs;
  }
  return out;
}
