import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../clock';
import { decayScore, decayTier, recallWeight } from './decay';

const NOW = Date.UTC(2026, 10, 25);
const memory = fc.record({
  ageDays: fc.double({ min: 0, max: 2000, noNaN: true }),
  recallCount: fc.integer({ min: 0, max: 1000 }),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
});
const at = (m: { ageDays: number; recallCount: number; importance: number }) => ({
  createdAt: NOW - m.ageDays * DAY_MS,
  lastRecalledAt: null,
  recallCount: m.recallCount,
  importance: m.importance,
});

describe('003 decay: min(1, e^(−0.1·ageDays) · (1 + 0.2·recallCount) · (1 + 0.3·importance))', () => {
  it.each([
    // ageDays, recallCount, importance, expected
    [0, 0, 0, 1],
    [1, 0, 0, Math.exp(-0.1)],
    [10, 0, 0, Math.exp(-1)],
    [60, 0, 0, Math.exp(-6)], // the seed's 60-day scenario: 0.0025 (ARCHITECTURE §10)
    [10, 2, 0, Math.exp(-1) * 1.4],
    [10, 0, 1, Math.exp(-1) * 1.3],
    [10, 5, 1, Math.min(1, Math.exp(-1) * 2 * 1.3)],
    [30, 1, 0.5, Math.exp(-3) * 1.2 * 1.15],
  ])('age %d days, %d recalls, importance %d → %f', (ageDays, recallCount, importance, expected) => {
    expect(decayScore(at({ ageDays, recallCount, importance }), NOW)).toBeCloseTo(expected, 12);
  });

  it('stays within 0–1, never rises with age, never falls with recalls or importance', () => {
    fc.assert(
      fc.property(memory, fc.double({ min: 0, max: 100, noNaN: true }), (m, later) => {
        const score = decayScore(at(m), NOW);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
        expect(decayScore(at({ ...m, ageDays: m.ageDays + later }), NOW)).toBeLessThanOrEqual(score);
        expect(decayScore(at({ ...m, recallCount: m.recallCount + 1 }), NOW)).toBeGreaterThanOrEqual(score);
        expect(decayScore(at({ ...m, importance: Math.min(1, m.importance + 0.1) }), NOW)).toBeGreaterThanOrEqual(score);
      }),
    );
  });

  it('a recall restarts the age: a decaying memory recalled now is active again (003 被召回的记忆重新激活)', () => {
    const m = { createdAt: NOW - 7 * DAY_MS, lastRecalledAt: null, recallCount: 0, importance: 0 };
    expect(decayTier(decayScore(m, NOW))).toBe('decaying'); // e^−0.7 ≈ 0.50
    expect(decayTier(decayScore({ ...m, recallCount: 1, lastRecalledAt: NOW }, NOW))).toBe('active');
  });

  it('exempt memories (core settings, confirmed rules) do not decay', () => {
    fc.assert(
      fc.property(memory, (m) => {
        expect(decayScore({ ...at(m), exempt: true }, NOW)).toBe(1);
      }),
    );
  });

  it.each([
    [1, 'active'],
    [0.7, 'active'],
    [0.69, 'decaying'],
    [0.3, 'decaying'],
    [0.25, 'compress'],
    [0.1, 'compress'],
    [0.0025, 'evict'],
  ] as const)('score %f is in tier %s', (score, tier) => {
    expect(decayTier(score)).toBe(tier);
  });

  it('what a tier does to recall: full weight, lowered weight, out of recall', () => {
    expect(recallWeight('active', 0.8)).toBe(1);
    expect(recallWeight('decaying', 0.5)).toBe(0.5);
    expect(recallWeight('compress', 0.25)).toBe(0);
    expect(recallWeight('evict', 0.05)).toBe(0);
  });
});

/**
 * Issue 19: why a compressed episode is deleted for its score long before the 365-day TTL (docs/decisions.md,
 * "compressed episodes and the 365-day TTL"). Compressed episodes are never recalled (below 0.3 out of recall, and
 * recall reads only uncompressed rows), so nothing restarts their age: the score only falls, by e^−0.1 a day.
 */
describe('the tiers after compression: < 0.1 comes before the 365-day TTL', () => {
  it('anything below 0.3 (out of recall, so never recalled again) is below 0.1 within 10·ln 3 ≈ 11 days', () => {
    fc.assert(
      fc.property(memory, fc.double({ min: 0, max: 1000, noNaN: true }), (m, past) => {
        // Recalled (or made) long enough ago to have fallen to 0.3 or below: 10·ln(boost / 0.3) days, and more.
        const boost = (1 + 0.2 * m.recallCount) * (1 + 0.3 * m.importance);
        const e = { ...at({ ...m, ageDays: 10 * Math.log(boost / 0.3) + past }) };
        expect(decayScore(e, NOW)).toBeLessThanOrEqual(0.3 + 1e-9);
        expect(decayScore(e, NOW + 11 * DAY_MS)).toBeLessThan(0.1);
      }),
    );
  });

  it('compressed by the 180-day TTL while still active, it falls below 0.1 well before day 365, even after a million recalls', () => {
    const created = NOW - 365 * DAY_MS;
    // Recalled a million times, the last time on the day the 180-day TTL compressed it, importance 1.
    const e = { createdAt: created, lastRecalledAt: created + 180 * DAY_MS, recallCount: 1_000_000, importance: 1 };
    expect(decayScore(e, created + 180 * DAY_MS)).toBe(1);
    expect(decayScore(e, NOW)).toBeLessThan(0.1);
    // The TTL would come first only with a boost of 0.1·e^18.5 ≈ 1.1e7, i.e. ~4e7 recalls.
    expect(decayScore({ ...e, recallCount: 5e7 }, NOW)).toBeGreaterThanOrEqual(0.1);
  });
});
