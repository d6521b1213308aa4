import { describe, expect, it } from 'vitest';
import { fixedClock } from '../clock';
import { EngineError } from '../errors';
import { searchMemoriesSpec, toSearchQuery } from './search-memories-tool';

const NOW = Date.UTC(2025, 5, 15, 12);
const clock = fixedClock(NOW);

describe('toSearchQuery', () => {
  it.each([
    ['a keyword only', { keyword: ' Python ' }, { keyword: 'Python' }],
    ['a null range', { keyword: 'x', timeRange: null }, { keyword: 'x' }],
    ['whole days, inclusive', { keyword: 'x', timeRange: { from: '2025-01-01', to: '2025-01-02' } }, { keyword: 'x', fromMs: Date.UTC(2025, 0, 1), toMs: Date.UTC(2025, 0, 3) - 1 }],
    ['an open end', { keyword: 'x', timeRange: { from: '2025-03-01T08:00:00Z' } }, { keyword: 'x', fromMs: Date.UTC(2025, 2, 1, 8) }],
    ['a preset phrase', { keyword: 'x', timeRange: 'last_7_days' }, { keyword: 'x', fromMs: NOW - 7 * 86_400_000, toMs: NOW }],
    ['extra fields a model invents', { keyword: 'x', limit: 5 }, { keyword: 'x' }],
  ])('accepts %s', (_label, args, expected) => {
    expect(toSearchQuery(args, clock)).toEqual(expected);
  });

  it.each([
    ['no keyword', {}, 'search_memories.keyword'],
    ['an empty keyword', { keyword: '  ' }, 'search_memories.keyword'],
    ['a date that is not ISO', { keyword: 'x', timeRange: { from: 'last Tuesday' } }, 'search_memories.timeRange'],
    ['a reversed range', { keyword: 'x', timeRange: { from: '2025-02-01', to: '2025-01-01' } }, 'search_memories.timeRange'],
  ])('rejects %s naming the field', (_label, args, field) => {
    let err: unknown;
    try {
      toSearchQuery(args, clock);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('INVALID_ARGUMENT');
    expect((err as EngineError).message).toContain(`\`${field}`);
  });

  it('offers the seed 000 shape: keyword required, timeRange optional', () => {
    expect(searchMemoriesSpec.name).toBe('search_memories');
    expect(searchMemoriesSpec.parameters).toMatchObject({ required: ['keyword'], properties: { keyword: { type: 'string' }, timeRange: { type: 'object' } } });
  });
});
