import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../clock';
import { decay, recencyBasis, recencyTerm, temporalFit } from './time-fit';

const NOW = Date.UTC(2024, 4, 15);
const yesterday = { start: NOW - DAY_MS, end: NOW };

describe('temporalFit', () => {
  it.each([
    ['inside the range', NOW - DAY_MS / 2, 1],
    ['one range-length before it', NOW - 2 * DAY_MS, 0.5],
    ['one range-length after it (decays half as fast)', NOW + DAY_MS, Math.SQRT1_2],
    ['two range-lengths after it', NOW + 2 * DAY_MS, 0.5],
  ])('%s', (_, at, want) => {
    expect(temporalFit(at, [yesterday])).toBeCloseTo(want, 10);
  });

  it('takes the best of several ranges', () => {
    expect(temporalFit(NOW - 10 * DAY_MS, [yesterday, { start: NOW - 11 * DAY_MS, end: NOW - 9 * DAY_MS }])).toBe(1);
  });
});

describe('recencyTerm', () => {
  const base = { now: NOW, newest: NOW - 10 * DAY_MS, ranges: [] as { start: number; end: number }[], recentCue: false, timeAware: true };

  it.each([
    ['a timeless question gives every turn the same recency', base, 'timeless', NOW - 400 * DAY_MS, 1],
    ['a question about now decays from the newest candidate', { ...base, recentCue: true }, 'recent', NOW - 40 * DAY_MS, 0.5],
    ['a named time scores the fit to it', { ...base, ranges: [yesterday] }, 'time-range', NOW - DAY_MS / 2, 1],
    ['without time-awareness: 002 as written, 30-day half-life from now', { ...base, timeAware: false }, 'age', NOW - 30 * DAY_MS, 0.5],
  ] as const)('%s', (_, ctx, basis, at, want) => {
    expect(recencyBasis(ctx)).toBe(basis);
    expect(recencyTerm(at, ctx)).toBeCloseTo(want, 10);
  });

  it.each([
    [0, 0.5],
    [0.9, 0.95],
    [1, 1],
  ])('with recentFloor %s, a "currently" question gives a turn one half-life older %s (newness orders, not filters)', (recentFloor, want) => {
    const ctx = { ...base, recentCue: true, recentFloor };
    expect(recencyTerm(NOW - 40 * DAY_MS, ctx)).toBeCloseTo(want, 10);
    expect(recencyTerm(NOW - 10 * DAY_MS, ctx)).toBe(1);
  });

  it('never rises above 1 for turns after the reference time', () => {
    expect(decay(-DAY_MS)).toBe(1);
  });
});
