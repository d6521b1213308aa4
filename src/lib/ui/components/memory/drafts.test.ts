import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../domain/memory';
import { buildCreateInput, buildUpdateInput, changesSomething, parseTags, parseValueJson, toEditDraft } from './drafts';

const memory: MemoryRecord = {
  id: 'm-1',
  scope: 'global',
  projectId: null,
  sessionId: null,
  messageId: null,
  category: 'preference',
  key: 'preference.drink.tea',
  value: { item: 'tea', polarity: 'positive' },
  content: 'I like green tea',
  tags: ['drink', 'tea'],
  confidence: 0.8,
  source: 'inferred',
  importance: 0.5,
  status: 'active',
  supersededBy: null,
  language: 'en',
  createdAt: 0,
  updatedAt: 0,
  lastAccessed: null,
  accessCount: 0,
  version: 3,
};

describe('value JSON', () => {
  it.each([
    { text: '"tea"', want: { ok: true, value: 'tea' } },
    { text: '{"a": [1, 2]}', want: { ok: true, value: { a: [1, 2] } } },
    { text: 'null', want: { ok: true, value: null } },
    { text: '42', want: { ok: true, value: 42 } },
    { text: 'tea', want: { ok: false, error: 'json' } },
    { text: "{'a': 1}", want: { ok: false, error: 'json' } },
    { text: '{"a": 1,}', want: { ok: false, error: 'json' } },
    { text: '   ', want: { ok: false, error: 'required' } },
    { text: JSON.stringify('x'.repeat(9000)), want: { ok: false, error: 'jsonTooBig' } },
  ])('$text', ({ text, want }) => {
    expect(parseValueJson(text)).toEqual(want);
  });
});

describe('tags', () => {
  it.each([
    { text: '', want: { ok: true, tags: [] } },
    { text: 'a, b ,c', want: { ok: true, tags: ['a', 'b', 'c'] } },
    { text: '饮料，茶、饮料', want: { ok: true, tags: ['饮料', '茶'] } },
    { text: ' , ,', want: { ok: true, tags: [] } },
    { text: 'x'.repeat(41), want: { ok: false, error: 'tooLong' } },
    { text: Array.from({ length: 21 }, (_, i) => `t${i}`).join(','), want: { ok: false, error: 'tooMany' } },
  ])('"$text"', ({ text, want }) => {
    expect(parseTags(text)).toEqual(want);
  });
});

describe('edit → memory.update', () => {
  it('sends nothing but the version when nothing changed', () => {
    const built = buildUpdateInput(memory, toEditDraft(memory));
    expect(built).toEqual({ ok: true, input: { id: 'm-1', expectedVersion: 3 } });
    expect(built.ok && changesSomething(built.input)).toBe(false);
  });

  it.each([
    { name: 'content', edit: { content: ' I love green tea ' }, want: { content: 'I love green tea' } },
    { name: 'value', edit: { valueText: '{"item":"matcha"}' }, want: { value: { item: 'matcha' } } },
    { name: 'value reformatted only', edit: { valueText: '{"item":"tea","polarity":"positive"}' }, want: {} },
    { name: 'tags', edit: { tagsText: 'tea' }, want: { tags: ['tea'] } },
    { name: 'category', edit: { category: 'fact' as const }, want: { category: 'fact' } },
    { name: 'confidence', edit: { confidencePercent: 95 }, want: { confidence: 0.95 } },
  ])('sends only the changed $name', ({ edit, want }) => {
    const built = buildUpdateInput(memory, { ...toEditDraft(memory), ...edit });
    expect(built).toEqual({ ok: true, input: { id: 'm-1', expectedVersion: 3, ...want } });
  });

  it.each([
    { name: 'empty content', edit: { content: '  ' }, field: 'content', kind: 'required' },
    { name: 'broken JSON', edit: { valueText: '{item: tea}' }, field: 'value', kind: 'json' },
    { name: 'too many tags', edit: { tagsText: Array.from({ length: 25 }, (_, i) => `t${i}`).join(',') }, field: 'tags', kind: 'tooMany' },
    { name: 'confidence over 100', edit: { confidencePercent: 120 }, field: 'confidence', kind: 'range' },
    { name: 'confidence emptied', edit: { confidencePercent: null }, field: 'confidence', kind: 'range' },
  ])('refuses $name at its field before sending', ({ edit, field, kind }) => {
    const built = buildUpdateInput(memory, { ...toEditDraft(memory), ...edit });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.errors[field]?.kind).toBe(kind);
  });

  it('reports every bad field at once', () => {
    const built = buildUpdateInput(memory, { ...toEditDraft(memory), content: '', valueText: 'nope' });
    expect(!built.ok && Object.keys(built.errors).sort()).toEqual(['content', 'value']);
  });
});

describe('add → memory.create', () => {
  it.each([
    { draft: { content: ' 我对花生过敏 ', category: 'fact' as const, tagsText: '健康, 过敏' }, want: { content: '我对花生过敏', category: 'fact', tags: ['健康', '过敏'] } },
    { draft: { content: 'Call me Lin', category: 'preference' as const, tagsText: '' }, want: { content: 'Call me Lin', category: 'preference', tags: [] } },
  ])('$draft.content', ({ draft, want }) => {
    expect(buildCreateInput(draft)).toEqual({ ok: true, input: want });
  });

  it('refuses an empty memory', () => {
    expect(buildCreateInput({ content: ' ', category: 'fact', tagsText: '' })).toEqual({ ok: false, errors: { content: { kind: 'required' } } });
  });
});
