import { describe, expect, it } from 'vitest';
import { sequentialIds } from './clock';
import { idFromOp, opScopedIds } from './op-scoped-ids';

describe('ids derived from a write\'s op id', () => {
  it('the same write gets the same ids each time it runs; another write, other ids; outside a write, the fallback', () => {
    const ids = opScopedIds(sequentialIds('x'));
    const first = ids.during('op-1', () => [ids.next(), ids.next()]);
    const again = ids.during('op-1', () => [ids.next(), ids.next()]);
    const other = ids.during('op-2', () => [ids.next()]);
    expect(again).toEqual(first);
    expect(first[0]).not.toBe(first[1]);
    expect(other[0]).not.toBe(first[0]);
    expect(ids.next()).toBe('x-000001');
    expect(ids.during(undefined, () => ids.next())).toBe('x-000002');
    expect(first[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idFromOp('op-1', 1)).toBe(first[0]);
  });
});
