import { describe, expect, it } from 'vitest';
import { canonicalDump, canonicalJson } from './canonical';
import { conflictItem, decide, isNewer } from './diff';
import { memories } from './tables-memory';
import { symbolIndex } from './tables-conversation';

const memory = (patch: Record<string, unknown> = {}) => ({
  id: 'm1', scope: 'global', project_id: null, session_id: null, message_id: null, category: 'fact', key: 'fact.city',
  value: { city: '上海', since: [2020, { month: 5 }] }, content: '用户住在上海', tags: ['city'], confidence: 0.9, source: 'inferred',
  importance: 0.5, status: 'active', superseded_by: null, language: 'zh', created_at: 1, updated_at: 10, last_accessed: null,
  access_count: 0, version: 2, ...patch,
});

describe('what an import does with a row that exists locally', () => {
  it.each([
    ['the same row (JSON keys in another order)', memory({ value: { since: [2020, { month: 5 }], city: '上海' } }), 'merge', 'skip'],
    ['a newer version', memory({ content: '用户住在杭州', version: 3, updated_at: 20 }), 'merge', 'update'],
    ['the same version, changed later', memory({ content: '用户住在杭州', updated_at: 20 }), 'merge', 'update'],
    ['an older version', memory({ content: '用户住在杭州', version: 1, updated_at: 20 }), 'merge', 'conflict'],
    ['neither newer', memory({ content: '用户住在杭州' }), 'merge', 'conflict'],
    ['neither newer, replacing', memory({ content: '用户住在杭州' }), 'replace', 'update'],
  ] as const)('%s → %s', (_, incoming, mode, outcome) => {
    expect(decide({ table: memories, mode, incoming, local: memory() })).toBe(outcome);
  });

  it('compares the newer columns in order', () => {
    expect(isNewer(memories, memory({ version: 3, updated_at: 1 }), memory())).toBe(true);
    expect(isNewer(memories, memory({ version: 1, updated_at: 99 }), memory())).toBe(false);
  });

  it('lists a conflict by its id, and never by text a person wrote', () => {
    expect(conflictItem(memories, memory())).toEqual({ table: 'memories', key: 'm1' });
    expect(conflictItem(symbolIndex, { symbol: 'processOrder', turn_id: 3 })).toEqual({ table: 'symbol_index', key: null });
  });
});

describe('canonical dumps', () => {
  it('do not depend on row order or key order', () => {
    const a = canonicalDump({ tables: { t: [{ a: 1, b: [2, 1] }, { a: 2, b: [] }] }, files: [] });
    const b = canonicalDump({ tables: { t: [{ b: [], a: 2 }, { b: [2, 1], a: 1 }] }, files: [] });
    expect(a).toEqual(b);
    expect(canonicalJson({ b: { d: 1, c: null }, a: '长' })).toBe('{"a":"长","b":{"c":null,"d":1}}');
  });

  it('tell a changed value apart, including array order', () => {
    const a = canonicalDump({ tables: { t: [{ b: [1, 2] }] } });
    const b = canonicalDump({ tables: { t: [{ b: [2, 1] }] } });
    expect(a).not.toEqual(b);
  });
});
