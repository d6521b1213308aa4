import { describe, expect, it } from 'vitest';
import type { MemorySnapshot } from '../../../engine/store/memory-rows';
import { canRestoreVersion, summarizeHistory } from './history-diff';

const snap = (over: Partial<MemorySnapshot> = {}): MemorySnapshot => ({
  category: 'fact',
  key: 'fact.name',
  value: 'Lin',
  content: 'My name is Lin',
  tags: [],
  confidence: 1,
  source: 'user_stated',
  importance: 0.5,
  status: 'active',
  supersededBy: null,
  ...over,
});

describe('history entry summaries', () => {
  it('shows what a new memory said', () => {
    expect(summarizeHistory({ action: 'create', before: null, after: snap() })).toEqual({ kind: 'created', content: 'My name is Lin' });
  });

  it.each([
    {
      name: 'an edit of the text and value',
      before: snap(),
      after: snap({ content: 'My name is Lin Wei', value: 'Lin Wei' }),
      want: [
        { field: 'content', before: 'My name is Lin', after: 'My name is Lin Wei' },
        { field: 'value', before: 'Lin', after: 'Lin Wei' },
      ],
    },
    {
      name: 'being replaced',
      before: snap(),
      after: snap({ status: 'superseded', supersededBy: 'm-9' }),
      want: [
        { field: 'status', before: 'active', after: 'superseded' },
        { field: 'supersededBy', before: null, after: 'm-9' },
      ],
    },
    {
      name: 'tags and confidence',
      before: snap({ tags: ['a'] }),
      after: snap({ tags: ['a', 'b'], confidence: 0.6 }),
      want: [
        { field: 'tags', before: ['a'], after: ['a', 'b'] },
        { field: 'confidence', before: 1, after: 0.6 },
      ],
    },
    { name: 'a structured value', before: snap({ value: { a: 1 } }), after: snap({ value: { a: 2 } }), want: [{ field: 'value', before: { a: 1 }, after: { a: 2 } }] },
  ])('$name', ({ before, after, want }) => {
    expect(summarizeHistory({ action: 'update', before, after })).toEqual({ kind: 'changed', changes: want });
  });

  it('says so when a change left everything as it was', () => {
    expect(summarizeHistory({ action: 'restore', before: snap(), after: snap() })).toEqual({ kind: 'unchanged' });
  });

  it.each([
    { entry: { version: 2, after: snap() }, current: 4, want: true },
    { entry: { version: 4, after: snap() }, current: 4, want: false },
    { entry: { version: 2, after: null }, current: 4, want: false },
  ])('version $entry.version restorable at version $current: $want', ({ entry, current, want }) => {
    expect(canRestoreVersion(entry, current)).toBe(want);
  });
});
