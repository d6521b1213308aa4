/** Time and identity as ports, so tests run on a fixed clock and fixed ids. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function fixedClock(start: number): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export type IdGen = () => string;

export const randomId: IdGen = () => crypto.randomUUID();

export function sequentialIds(prefix = 'id'): IdGen {
  let n = 0;
  return () => `${prefix}-${String(++n).padStart(6, '0')}`;
}

export const DAY_MS = 86_400_000;
