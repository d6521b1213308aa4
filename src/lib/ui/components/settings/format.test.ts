import { describe, expect, it } from 'vitest';
import { formatBytes, formatDateTime } from './format';

describe('formatBytes', () => {
  it.each([
    { bytes: 0, locale: 'en', want: /^0 byte/ },
    { bytes: 999, locale: 'en', want: /^999 byte/ },
    { bytes: 1_000, locale: 'en', want: /^1 kB$/ },
    { bytes: 1_536, locale: 'en', want: /^1\.5 kB$/ },
    { bytes: 123_456_789, locale: 'en', want: /^123 MB$/ },
    { bytes: 2_400_000_000, locale: 'en', want: /^2\.4 GB$/ },
    { bytes: 5e15, locale: 'en', want: /^5 PB$/ },
    { bytes: 1_536, locale: 'zh-CN', want: /^1\.5\s?kB$/ },
    { bytes: 12, locale: 'zh-CN', want: /^12\s?(B|byte|字节)$/ },
  ])('$bytes bytes in $locale', ({ bytes, locale, want }) => {
    expect(formatBytes(bytes, locale)).toMatch(want);
  });

  it.each([NaN, -1, Infinity])('says nothing it cannot know (%s)', (bytes) => {
    expect(formatBytes(bytes, 'en')).toBe('—');
  });

  it('grows monotonically with the size within a unit', () => {
    const a = parseFloat(formatBytes(2_100_000, 'en'));
    const b = parseFloat(formatBytes(2_900_000, 'en'));
    expect(b).toBeGreaterThan(a);
  });
});

describe('formatDateTime', () => {
  it('writes the year for both languages and differs between them', () => {
    const ms = new Date(2024, 2, 5, 14, 7).getTime();
    const en = formatDateTime(ms, 'en');
    const zh = formatDateTime(ms, 'zh-CN');
    expect(en).toContain('2024');
    expect(zh).toContain('2024年');
    expect(en).not.toBe(zh);
  });

  it('gives a dash for an impossible time', () => {
    expect(formatDateTime(NaN, 'en')).toBe('—');
  });
});
