import { afterEach, describe, expect, it } from 'vitest';
import { i18n, t } from './i18n.svelte';

afterEach(() => i18n.setLocale('en'));

describe('plural forms (issue 15: "The model suggested 1 memories…")', () => {
  it.each([
    ['chat:extractionInvalid', 'The model suggested 1 memory Engram could not use', 'The model suggested 3 memories Engram could not use'],
    ['chat:sessions.turns', '1 turn', '3 turns'],
    ['recall:total', '1 matching message', '3 matching messages'],
    ['write:documents.chars', '1 character', '3 characters'],
    ['memory:retrieve.topN', 'At most 1 memory is used.', 'At most 3 memories are used.'],
    ['inspect:layers.over', 'Over budget by 1 token', 'Over budget by 3 tokens'],
  ] as const)('%s: one and many in English', (key, one, many) => {
    expect(t(key, { count: 1 })).toContain(one);
    expect(t(key, { count: 3 })).toContain(many);
  });

  it('Chinese has one form for every number', () => {
    i18n.setLocale('zh-CN');
    expect(t('chat:sessions.turns', { count: 1 })).toBe('1 轮');
    expect(t('chat:sessions.turns', { count: 3 })).toBe('3 轮');
  });
});
