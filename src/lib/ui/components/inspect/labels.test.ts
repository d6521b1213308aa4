import { afterEach, describe, expect, it } from 'vitest';
import { i18n, tDynamic } from '../../i18n/i18n.svelte';
import { cutReasonKey, reasonKeys, statusKey } from './labels';

afterEach(() => i18n.setLocale('en'));

describe('inspector labels', () => {
  it.each([
    { reason: 'over-budget', en: 'Over budget', zh: '超出预算' },
    { reason: 'trimmed', en: 'Trimmed', zh: '已截短' },
    { reason: 'masked', en: 'Masked: a project rule overrides this global rule', zh: '已屏蔽：项目规则覆盖了这条全局规则' },
    { reason: 'not-requested', en: 'Not requested by the skill', zh: '技能未请求' },
  ])('cut reason $reason reads in both languages', ({ reason, en, zh }) => {
    const key = cutReasonKey(reason)!;
    expect(tDynamic(key)).toBe(en);
    i18n.setLocale('zh-CN');
    expect(tDynamic(key)).toBe(zh);
  });

  it('has words for every layer status', () => {
    for (const s of ['ok', 'empty', 'missing', 'timeout', 'canceled', 'degraded']) {
      const key = statusKey(s)!;
      expect(tDynamic(key), s).not.toBe(key);
    }
    expect(statusKey('exploded')).toBeNull();
  });

  it('explains each code of a joined reason and keeps unknown codes visible', () => {
    const got = reasonKeys('DB_UNAVAILABLE,TIMEOUT, strange');
    expect(got.map((r) => r.code)).toEqual(['DB_UNAVAILABLE', 'TIMEOUT', 'strange']);
    expect(tDynamic(got[0]!.key!)).toBe('The database could not be read.');
    expect(got[2]!.key).toBeNull();
    expect(reasonKeys(undefined)).toEqual([]);
    for (const code of ['disabled', 'no-project', 'not-requested', 'missing', 'CANCELED']) {
      const key = reasonKeys(code)[0]!.key!;
      i18n.setLocale('zh-CN');
      expect(tDynamic(key), code).not.toBe(key);
      i18n.setLocale('en');
    }
  });
});
