import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from './dates';

const ROOTS = ['src/lib/ui', 'src/routes'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(?:svelte|ts)$/u.test(name) && !/\.test\.ts$/u.test(name) ? [path] : [];
  });
}

describe('dates (issue 15: one format for every date)', () => {
  it('formats in the chosen language, the same way everywhere', () => {
    const at = Date.UTC(2026, 10, 25, 14, 43, 53);
    expect(formatDateTime(at, 'en')).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(at));
    expect(formatDateTime(at, 'zh-CN')).toMatch(/^2026年11月25日/u);
    expect(formatDateTime(Number.NaN, 'en')).toBe('—');
  });

  it('no page or component formats a date any other way', () => {
    const offenders = ROOTS.flatMap(files).filter((f) => !f.endsWith(join('app', 'dates.ts'))).filter((f) => {
      const text = readFileSync(f, 'utf8');
      return /\.toLocale(?:Date|Time)?String\(|new Intl\.DateTimeFormat\(/u.test(text);
    });
    expect(offenders).toEqual([]);
  });
});
