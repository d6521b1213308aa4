/** Latency summaries: percentiles by linear interpolation between closest ranks (numpy's default). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new RangeError('percentile p must be within 0–100');
  const sorted = [...values].sort((a, b) => a - b);
  const pos = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const low = sorted[lo] as number;
  return low + ((sorted[hi] as number) - low) * (pos - lo);
}

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const n = values.length;
  return {
    n,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean: n ? values.reduce((s, v) => s + v, 0) / n : Number.NaN,
    max: n ? values.reduce((m, v) => (v > m ? v : m), -Infinity) : Number.NaN,
  };
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : Number.NaN;
}

/** Rounds for reports (JSON keeps what a reader can use; sub-microsecond digits are noise). */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const median = (values: readonly number[]): number => percentile(values, 50);
