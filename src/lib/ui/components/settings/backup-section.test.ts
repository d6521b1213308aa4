import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.svelte';
import BackupSection from './backup-section.svelte';
import { renderHtml, textOf } from './test-render';

afterEach(() => i18n.setLocale('en'));

/** The test ids the Playwright specs drive (see the issue-6 report for the flow). */
const TEST_IDS = [
  'backup-section',
  'backup-export',
  'backup-export-scope-all',
  'backup-export-scope-project',
  'backup-export-scope-session',
  'backup-export-start',
  'backup-import',
  'backup-import-file',
  'backup-import-mode-merge',
  'backup-import-mode-replace',
  'backup-db-file',
  'backup-db-export',
  'backup-db-import-file',
  'backup-cleanup',
  'backup-cleanup-mode-older',
  'backup-cleanup-mode-session',
  'backup-cleanup-mode-all',
  'backup-cleanup-days',
  'backup-cleanup-run',
];

describe('settings › backup section', () => {
  it('carries the stable test ids of its controls', () => {
    const html = renderHtml(BackupSection, {});
    for (const id of TEST_IDS) expect(html, id).toContain(`data-testid="${id}"`);
  });

  it('accepts JSON exports and SQLite files in the file dialogs', () => {
    const html = renderHtml(BackupSection, {});
    expect(html).toContain('accept=".json,application/json"');
    expect(html).toContain('accept=".sqlite3,.sqlite,.db,application/vnd.sqlite3,application/x-sqlite3"');
  });

  it('starts with merge, not replace, and with cleanup of old conversations, not everything', () => {
    const html = renderHtml(BackupSection, {});
    expect(html).toMatch(/<input[^>]*value="merge"[^>]*checked|<input[^>]*checked[^>]*value="merge"/);
    expect(html).toMatch(/<input[^>]*value="older"[^>]*checked|<input[^>]*checked[^>]*value="older"/);
  });

  it('says in both languages that model keys never leave with a backup', () => {
    expect(textOf(renderHtml(BackupSection, {}))).toContain('never your model’s API key');
    i18n.setLocale('zh-CN');
    const zh = textOf(renderHtml(BackupSection, {}));
    expect(zh).toContain('绝不包含模型的 API 密钥');
    expect(zh).toContain('清理对话');
    expect(zh).not.toMatch(/backup:|settings:/);
  });
});
