import { describe, expect, it } from 'vitest';
import { LAYERS } from './layers';
import { budgetsForWindow, FRAMING_TOKENS, GROWTH, replyReserve } from './window-budgets';

const sum = (b: Record<string, number>) => Object.values(b).reduce((s, n) => s + n, 0);

describe('004 per-model budgets from the context window', () => {
  it.each([1024, 2048, 4096, 8192, 16_384, 32_768, 131_072, 2_000_000])('a %i-token window: the layers and the reply fit', (window) => {
    const b = budgetsForWindow(window);
    expect(Object.keys(b)).toEqual(LAYERS.map((l) => l.id));
    expect(sum(b) + replyReserve(window) + FRAMING_TOKENS).toBeLessThanOrEqual(window);
    for (const n of Object.values(b)) expect(Number.isInteger(n) && n >= 0).toBe(true);
  });

  it('a 4k local model gets every layer scaled down, keeping their proportions', () => {
    const b = budgetsForWindow(4096);
    expect(replyReserve(4096)).toBe(1024);
    expect(sum(b)).toBeLessThanOrEqual(4096 - 1024 - FRAMING_TOKENS);
    expect(b.L5).toBeLessThan(3000);
    expect(b.L5 / b.L1).toBeCloseTo(3000 / 400, 0);
    // The table in docs/design/01-memory-layers.md.
    expect(b).toEqual({ L0: 442, L1: 147, L2: 221, L3: 590, L4: 442, L5: 1107 });
  });

  it('a large window keeps the stable prefix budgets and gives the rest to L4/L5, up to a cap', () => {
    const b = budgetsForWindow(32_768);
    for (const l of LAYERS.filter((x) => x.stable)) expect(b[l.id]).toBe(l.defaultBudget);
    expect(b.L5).toBeGreaterThan(3000);
    const huge = budgetsForWindow(2_000_000);
    expect(huge.L4).toBe(1200 * GROWTH);
    expect(huge.L5).toBe(3000 * GROWTH);
  });
});
