import { describe, expect, it } from 'vitest';
import type { TraceReference } from '../../../engine/context/types';
import { groupReferences, ruleIdOf } from './trace-groups';

const ref = (type: TraceReference['type'], id: string, weight: number, layer: TraceReference['layer'] = 'L4'): TraceReference => ({ type, id, weight, layer });

describe('trace references by memory type', () => {
  it('groups in a fixed order with shares as percentages', () => {
    const groups = groupReferences([
      ref('memory', 'memory:a', 0.2),
      ref('semantic', 'preference:r-1', 0.125, 'L2'),
      ref('memory', 'memory:b', 0.5),
      ref('file', 'file:.engram/style/g.md', 0.175, 'L3'),
    ]);
    expect(groups.map((g) => [g.type, g.percent])).toEqual([
      ['semantic', 12.5],
      ['file', 17.5],
      ['memory', 70],
    ]);
    expect(groups[2]!.refs.map((r) => [r.id, r.percent])).toEqual([
      ['memory:b', 50],
      ['memory:a', 20],
    ]);
  });

  it('has nothing to show for an empty trace', () => {
    expect(groupReferences([])).toEqual([]);
  });

  it.each([
    { id: 'preference:r-1', want: 'r-1' },
    { id: 'memory:m-1', want: null },
  ])('rule of $id', ({ id, want }) => {
    expect(ruleIdOf({ id })).toBe(want);
  });
});
