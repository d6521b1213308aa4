import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, lazyEntries } from './define';
import { contract, isMethod, METHODS } from './contract';

describe('lazyEntries (issue 16: the contract builds a call only when it is first used)', () => {
  it('runs a thunk on the first read of its key, once, and never for keys nobody reads', () => {
    const built: string[] = [];
    const entries = lazyEntries({
      a: () => (built.push('a'), call<number>()({ input: z.strictObject({ n: z.number() }) })),
      b: () => (built.push('b'), call<string>()({ input: z.strictObject({}) })),
    });
    expect(built).toEqual([]);
    expect(Object.keys(entries)).toEqual(['a', 'b']);
    expect(Object.hasOwn(entries, 'b')).toBe(true);
    const first = entries.a;
    expect(entries.a).toBe(first);
    expect(built).toEqual(['a']);
    expect(first.input.safeParse({ n: 'x' }).success).toBe(false);
  });

  it('keeps a plain spec as it is (an entry added without a thunk still works)', () => {
    const spec = call<number>()({ input: z.strictObject({}), write: true });
    const entries = lazyEntries({ plain: spec, lazy: () => spec });
    expect(entries.plain).toBe(spec);
    expect(entries.lazy).toBe(spec);
  });

  it('the contract still lists every call, and each entry is one object however often it is read', () => {
    expect(METHODS.length).toBeGreaterThan(100);
    expect(METHODS).toEqual(Object.keys(contract));
    expect(isMethod('recall.search')).toBe(true);
    expect(isMethod('recall.nope')).toBe(false);
    for (const m of METHODS) {
      expect(contract[m]).toBe(contract[m]);
      expect(typeof contract[m].input.safeParse).toBe('function');
    }
  });
});
