import { describe, expect, it } from 'vitest';
import { compactItem, createCompactSummary, needsCompaction, planCompaction } from './compact';

describe('004 历史记录自动压缩', () => {
  it.each([
    { entries: 10, tokens: 100, maxEntries: 10, maxTokens: 100, want: false },
    { entries: 11, tokens: 100, maxEntries: 10, maxTokens: 100, want: true },
    { entries: 3, tokens: 101, maxEntries: 10, maxTokens: 100, want: true },
    { entries: 0, tokens: 0, maxEntries: 0, maxTokens: 0, want: false },
  ])('needsCompaction(entries $entries/$maxEntries, tokens $tokens/$maxTokens) = $want', (row) => {
    expect(needsCompaction(row)).toBe(row.want);
  });

  const history = Array.from({ length: 12 }, (_, i) => ({ id: 100 + i, seq: i + 1, tokens: 50 }));

  it('plans to compact all but the most recent entries, in sequence order whatever the input order', () => {
    const shuffled = [...history].reverse();
    const plan = planCompaction({ entries: shuffled, maxEntries: 10, maxTokens: 10_000, keepRecent: 4 });
    expect(plan).toEqual({ range: { from: 1, to: 8 }, ids: [100, 101, 102, 103, 104, 105, 106, 107] });
  });

  it('plans nothing below the threshold, or when everything is recent', () => {
    expect(planCompaction({ entries: history, maxEntries: 20, maxTokens: 10_000, keepRecent: 4 })).toBeNull();
    expect(planCompaction({ entries: history, maxEntries: 5, maxTokens: 10_000, keepRecent: 12 })).toBeNull();
  });

  it('builds a structured summary whose text and L4 item point back to the full rows', () => {
    const summary = createCompactSummary({
      range: { from: 1, to: 8 },
      topics: ['第三章的节奏'],
      decisions: ['改成倒叙'],
      openQuestions: [],
      entities: ['Alice', '轨道站'],
      fullRef: { table: 'messages', ids: [107, 100, 101, 100] },
    });
    expect(summary.kind).toBe('compact');
    expect(summary.fullRef).toEqual({ table: 'messages', ids: [100, 101, 107] });
    expect(summary.text.split('\n')).toEqual([
      'compact summary 压缩摘要 (1–8) · full: messages#100-107',
      'topics 主题: 第三章的节奏',
      'decisions 决定: 改成倒叙',
      'entities 实体: Alice；轨道站',
    ]);
    const item = compactItem(summary, 's1');
    expect(item).toMatchObject({ id: 'compact:s1:1-8', kind: 'compact', source: 'messages#100-107' });
    expect(item.meta?.fullRef).toEqual(summary.fullRef);
  });

  it.each([
    [{ range: { from: 9, to: 1 } }, 'compact.range'],
    [{ fullRef: { table: 'messages; DROP', ids: [1] } }, 'compact.fullRef.table'],
    [{ fullRef: { table: 'messages', ids: [] } }, 'compact.fullRef.ids'],
    [{ topics: [''] }, 'compact.topics[0]'],
  ])('rejects a malformed summary (%o) naming %s', (patch, field) => {
    const base = { range: { from: 1, to: 2 }, topics: [], decisions: [], openQuestions: [], entities: [], fullRef: { table: 'messages', ids: [1] } };
    expect(() => createCompactSummary({ ...base, ...patch })).toThrowError(new RegExp(`\`${field.replace(/[.[\]]/g, '\\$&')}\``));
  });
});

describe('004 历史记录自动压缩: run records as the full entries', () => {
  it('refers to record ids (run ids) in the order given', () => {
    const summary = createCompactSummary({
      range: { from: 1, to: 3 },
      topics: ['polish ×3'],
      decisions: [],
      openQuestions: [],
      entities: [],
      fullRef: { table: 'context_runs', ids: ['run-b', 'run-a', 'run-b', 'run-c'] },
    });
    expect(summary.fullRef.ids).toEqual(['run-b', 'run-a', 'run-c']);
    expect(summary.text.split('\n')[0]).toBe('compact summary 压缩摘要 (1–3) · full: context_runs#run-b…run-c');
    expect(() => createCompactSummary({ ...summary, fullRef: { table: 'context_runs', ids: ['../etc'] } })).toThrow(/compact\.fullRef\.ids\[0\]/);
  });
});
