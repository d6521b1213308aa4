import { describe, expect, it } from 'vitest';
import { actorLabel, formatJson, formatPercent, formatScore, matchesConfirmWord, originHref, reasonKey } from './format';

describe('memory page formatting', () => {
  it.each([
    { value: 0.87, locale: 'en', want: '87%' },
    { value: 1, locale: 'zh-CN', want: '100%' },
    { value: 0.005, locale: 'en', want: '1%' },
    { value: Number.NaN, locale: 'en', want: '—' },
  ])('confidence $value in $locale → $want', ({ value, locale, want }) => {
    expect(formatPercent(value, locale)).toBe(want);
  });

  it('shows the small score terms with three decimals', () => {
    expect(formatScore(0.0125, 'en')).toBe('0.013');
    expect(formatScore(1.3, 'en')).toBe('1.300');
  });

  it.each([
    { actor: 'user' as const, want: 'you' },
    { actor: 'extractor' as const, want: 'learned' },
    { actor: 'import' as const, want: 'import' },
    { actor: 'system' as const, want: 'system' },
    { actor: null, want: 'system' },
  ])('actor $actor reads as $want', ({ actor, want }) => {
    expect(actorLabel(actor)).toBe(want);
  });

  it.each([
    { origin: null, want: null },
    { origin: { sessionId: 's-1', messageId: 7, sessionTitle: 'Trip', messageExists: true }, want: '/chat?session=s-1&message=7' },
    { origin: { sessionId: 's-1', messageId: 7, sessionTitle: '', messageExists: false }, want: '/chat?session=s-1' },
    { origin: { sessionId: 's 1&x', messageId: null, sessionTitle: 'T', messageExists: false }, want: '/chat?session=s+1%26x' },
    { origin: { sessionId: 's-1', messageId: 7, sessionTitle: null, messageExists: false }, want: null },
  ])('links the originating message: $want', ({ origin, want }) => {
    expect(originHref(origin)).toBe(want);
  });

  it.each([
    { typed: 'delete', word: 'delete', want: true },
    { typed: ' DELETE ', word: 'delete', want: true },
    { typed: 'ｄｅｌｅｔｅ', word: 'delete', want: true },
    { typed: '删除', word: '删除', want: true },
    { typed: 'delet', word: 'delete', want: false },
    { typed: 'delete', word: '删除', want: false },
    { typed: '', word: '', want: false },
  ])('"$typed" confirms "$word": $want', ({ typed, word, want }) => {
    expect(matchesConfirmWord(typed, word)).toBe(want);
  });

  it.each([
    { code: 'extract:supersede', want: 'extractSupersede' },
    { code: 'restore-version', want: 'restoreVersion' },
    { code: 'edit', want: 'edit' },
    { code: 'something-new', want: null },
    { code: 'toString', want: null },
    { code: null, want: null },
  ])('reason $code → $want', ({ code, want }) => {
    expect(reasonKey(code)).toBe(want);
  });

  it('pretty-prints values as JSON text', () => {
    expect(formatJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(formatJson('tea')).toBe('"tea"');
  });
});
