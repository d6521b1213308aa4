import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleContext } from './assemble';
import { preferenceItem } from './preferences';
import { input, layersOf } from './testing';
import type { ContextItem, LayerId, LayerInput } from './types';

// Text with the things that tend to break determinism: CJK, trailing spaces, CRLF, combining marks.
const text = fc
  .array(fc.constantFrom('他', '走', '了', 'é', 'e\u0301', 'a', ' ', '  ', '\r\n', '\n', '。', '.', '\t'), { minLength: 1, maxLength: 25 })
  .map((parts) => `x${parts.join('')}`);
const order = fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined });

function withIds<T>(arb: fc.Arbitrary<T[]>, make: (value: T, i: number) => ContextItem) {
  return arb.map((values) => values.map(make));
}

const staticLayers = fc.record({
  L0: withIds(fc.array(fc.tuple(text, order), { minLength: 1, maxLength: 4 }), ([t, o], i) => ({ id: `system:${i}`, kind: 'system', text: t, ...(o === undefined ? {} : { order: o }) })),
  L1: withIds(fc.array(text, { maxLength: 2 }), (t, i) => ({ id: `profile:${i}`, kind: 'profile', text: t })),
  L2: withIds(
    fc.array(fc.record({ t: text, o: order, scope: fc.constantFrom('global', 'project'), c: fc.double({ min: 0, max: 1, noNaN: true }), key: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }) }), { maxLength: 8 }),
    (r, i) => preferenceItem({ id: String(i), rule: r.t, scope: r.scope as 'global' | 'project', confidence: r.c, ...(r.key ? { key: r.key } : {}), ...(r.o === undefined ? {} : { order: r.o }) }),
  ),
  L3: withIds(fc.array(fc.tuple(text, order), { maxLength: 4 }), ([t, o], i) => ({ id: `file:.engram/world/f${i}.md`, kind: 'world', text: t, ...(o === undefined ? {} : { order: o }) })),
});

/** A permutation of each layer's items, driven by fast-check so failures shrink and replay. */
const shuffles = fc.array(fc.integer(), { minLength: 40, maxLength: 40 });

function shuffle<T>(items: T[], keys: number[]): T[] {
  return items.map((item, i) => ({ item, k: keys[i] ?? 0 })).sort((a, b) => a.k - b.k).map((x) => x.item);
}

type Static = Record<'L0' | 'L1' | 'L2' | 'L3', ContextItem[]>;

function layersFrom(s: Static, keys?: number[]): Record<LayerId, LayerInput> {
  const pick = (items: ContextItem[]): LayerInput => ({ items: keys ? shuffle(items, keys) : items });
  return layersOf({ L0: pick(s.L0), L1: pick(s.L1), L2: pick(s.L2), L3: pick(s.L3) });
}

describe('004 确定性序列化 (property)', () => {
  it('shuffled input order gives the same prefix, hash and per-layer text', async () => {
    await fc.assert(
      fc.asyncProperty(staticLayers, shuffles, async (s, keys) => {
        const a = await assembleContext(input({ layers: layersFrom(s) }));
        const b = await assembleContext(input({ layers: layersFrom(s, keys) }));
        expect(b.stablePrefix).toBe(a.stablePrefix);
        expect(b.stablePrefixHash).toBe(a.stablePrefixHash);
        expect(b.layers.slice(0, 4).map((l) => l.items)).toEqual(a.layers.slice(0, 4).map((l) => l.items));
        // Normalised: no CR, no trailing whitespace on any line, NFC.
        expect(a.stablePrefix).not.toMatch(/\r|[ \t]+$/m);
        expect(a.stablePrefix).toBe(a.stablePrefix.normalize('NFC'));
      }),
      { seed: 4004, numRuns: 40 },
    );
  });

  it('nothing in L4–L5 can change the prefix hash (in one prompt language)', async () => {
    // The message decides the prompt's language (issue 15); within one language L4–L5 never reach the prefix.
    const base = await assembleContext(input({ language: 'zh' }));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 4 }), text, async (memories, message) => {
        const L4 = { items: memories.map((t, i) => ({ id: `memory:${i}`, kind: 'memory', text: t })) };
        const L5 = { items: [{ id: 'message', kind: 'message', text: message }] };
        const pkg = await assembleContext(input({ language: 'zh', layers: layersOf({ L4, L5 }) }));
        expect(pkg.stablePrefixHash).toBe(base.stablePrefixHash);
      }),
      { seed: 4005, numRuns: 30 },
    );
  });
});
