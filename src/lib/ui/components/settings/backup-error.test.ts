import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BACKUP_BYTES, tooLargeToRestore } from '../../../domain/backup';
import { i18n } from '../../i18n/i18n.svelte';
import BackupError from './backup-error.svelte';
import { formatBytes } from './format';
import { renderHtml, textOf } from './test-render';

afterEach(() => i18n.setLocale('en'));

describe('backup errors in the reader\'s language', () => {
  it('an export too large to import again says how large, the limit, and what to do instead', () => {
    const error = tooLargeToRestore(700 * 1024 * 1024);
    const text = textOf(renderHtml(BackupError, { error: { code: error.code, message: error.message, details: error.details }, testid: 'e' }));
    expect(text).toContain(`This backup would be about ${formatBytes(700 * 1024 * 1024, 'en')}`);
    expect(text).toContain(`up to ${formatBytes(MAX_BACKUP_BYTES, 'en')}`);
    expect(text).toContain('database file');
    i18n.setLocale('zh-CN');
    const zh = textOf(renderHtml(BackupError, { error: { code: error.code, message: error.message, details: error.details }, testid: 'e' }));
    expect(zh).toContain('超过了 Engram 能再次导入的大小');
  });
});
