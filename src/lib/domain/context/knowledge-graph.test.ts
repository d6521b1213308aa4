import { describe, expect, it } from 'vitest';
import { findContradictions, isValidAt, overlap, stateAt, type Fact, type StoryPoint } from './knowledge-graph';

const p = (chapter: number, scene = 0): StoryPoint => ({ chapter, scene });
const fact = (id: string, predicate: string, object: string, from: StoryPoint | null, to: StoryPoint | null, ref: string): Fact => ({
  id,
  subject: 'alice',
  predicate,
  object,
  valid: { from, to },
  recordedAt: 0,
  evidence: [{ ref }],
});

const FACTS: Fact[] = [
  fact('f1', 'status', 'alive', null, p(5), 'document:5#p3'),
  fact('f2', 'status', 'dead', p(5), null, 'document:5#p3'),
  fact('f3', 'location', 'bridge', p(3), p(6), 'document:3#p1'),
  fact('f4', 'location', 'engine-room', p(6), null, 'document:6#p2'),
  fact('f5', 'knows', 'bob', p(1), null, 'document:1#p7'),
  fact('f6', 'knows', 'carol', p(2), null, 'document:2#p1'),
];

describe('004 一致性检查的图谱查询', () => {
  it.each([
    [{ from: null, to: null }, p(1), true],
    [{ from: p(5), to: null }, p(4, 9), false],
    [{ from: p(5), to: null }, p(5), true],
    [{ from: p(3), to: p(6) }, p(6), false],
    [{ from: p(3), to: p(6) }, p(5, 2), true],
  ])('isValidAt(%o, %o) = %s (half-open story time)', (valid, at, want) => {
    expect(isValidAt(valid, at)).toBe(want);
  });

  it('answers the state of a character at a story point', () => {
    const at4 = stateAt(FACTS, { subject: 'alice', at: p(4) });
    expect(at4.get('status')?.map((f) => f.object)).toEqual(['alive']);
    expect(at4.get('location')?.map((f) => f.object)).toEqual(['bridge']);
    const at7 = stateAt(FACTS, { subject: 'alice', at: p(7) });
    expect(at7.get('status')?.map((f) => f.object)).toEqual(['dead']);
    expect(at7.get('knows')?.map((f) => f.object)).toEqual(['bob', 'carol']);
  });

  it('a consistent history has no contradiction (changes over time are not conflicts)', () => {
    expect(findContradictions(FACTS, new Set(['status', 'location']))).toEqual([]);
  });

  it('flags a functional predicate with two values at once, with the evidence to explain it', () => {
    const slip = fact('f7', 'status', 'alive', p(7, 2), p(8), 'document:7#p4');
    const found = findContradictions([...FACTS, slip], new Set(['status', 'location']));
    expect(found).toHaveLength(1);
    expect(found[0]?.facts.map((f) => f.id)).toEqual(['f2', 'f7']);
    expect(found[0]?.during).toEqual({ from: p(7, 2), to: p(8) });
    expect(found[0]?.evidence.map((e) => e.ref)).toEqual(['document:5#p3', 'document:7#p4']);
  });

  it('overlap of disjoint validities is null', () => {
    expect(overlap({ from: null, to: p(5) }, { from: p(5), to: null })).toBeNull();
  });
});
