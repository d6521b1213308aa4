import { describe, expect, it } from 'vitest';
import { newOpId } from './op-id';

describe('newOpId', () => {
  it('sorts by time, so each new idempotency record lands at the end of its b-tree', () => {
    const ids = [newOpId(1_700_000_000_000), newOpId(1_700_000_000_001), newOpId(1_800_000_000_000), newOpId(4_000_000_000_000)];
    expect([...ids].sort()).toEqual(ids);
  });

  it('is unique within one millisecond and fits the engine’s 8–100 characters', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newOpId(1_700_000_000_000)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{9}-[0-9a-f]{16}$/);
  });
});
