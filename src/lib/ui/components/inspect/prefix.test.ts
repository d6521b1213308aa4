import { describe, expect, it } from 'vitest';
import type { LayerResult } from '../../../domain/context';
import { comparePrefixes, dynamicPartOf, sha256Hex, stablePrefixOf } from './prefix';

const layer = (id: LayerResult['id'], text: string): LayerResult => ({ id, text, tokens: 1, budget: 10, status: 'ok', sources: [], cut: [], items: [] });
const layers = (l2: string, l4 = 'retrieved') => [layer('L0', 'rules'), layer('L1', 'profile'), layer('L2', l2), layer('L3', 'files'), layer('L4', l4), layer('L5', 'now')];

describe('stable prefix of a stored run', () => {
  it('is L0–L3 joined by blank lines with a final newline, and L4/L5 are not part of it', () => {
    expect(stablePrefixOf(layers('prefs'))).toBe('rules\n\nprofile\n\nprefs\n\nfiles\n');
    expect(stablePrefixOf(layers('prefs', 'other memories'))).toBe(stablePrefixOf(layers('prefs')));
    expect(dynamicPartOf(layers('prefs'))).toBe('retrieved\n\nnow');
  });

  it('hashes as SHA-256 hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    { name: 'identical', a: 'prefs', b: 'prefs', want: { same: true, byteOffset: null, layer: null, sharedBytes: 29 } },
    // "rules\n\nprofile\n\n" is 16 bytes; the L2 texts differ at their 3rd byte.
    { name: 'differs in L2', a: 'prefs', b: 'pre-x', want: { same: false, byteOffset: 19, layer: 'L2', sharedBytes: 19 } },
    // 偏 is 3 bytes in UTF-8: offsets count bytes, not characters.
    { name: 'after a CJK character', a: '偏好A', b: '偏好B', want: { same: false, byteOffset: 22, layer: 'L2', sharedBytes: 22 } },
  ])('$name', ({ a, b, want }) => {
    expect(comparePrefixes(layers(a), layers(b))).toEqual(want);
  });

  it('places a difference in L0 when the first layer differs', () => {
    const other = layers('prefs');
    other[0] = layer('L0', 'rulez');
    expect(comparePrefixes(layers('prefs'), other)).toMatchObject({ byteOffset: 4, layer: 'L0' });
  });
});
