import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '$lib/ui/i18n/i18n.svelte';
import { renderHtml, textOf } from '$lib/ui/components/settings/test-render';
import SettingsPage from './+page.svelte';

afterEach(() => i18n.setLocale('en'));

describe('settings page', () => {
  it.each(['general', 'model', 'memory', 'storage', 'maintenance', 'backup'])('has a section to link to: /settings#%s', (id) => {
    const html = renderHtml(SettingsPage, {});
    expect(html).toMatch(new RegExp(`<section id="${id}"[^>]*aria-labelledby="${id}-title"`));
    expect(html).toContain(`href="#${id}"`);
  });

  it('carries the test ids the end-to-end tests use', () => {
    const html = renderHtml(SettingsPage, {});
    for (const id of ['model-test', 'maintenance-run', 'maintenance-last', 'storage-info']) expect(html).toContain(`data-testid="${id}"`);
  });

  it('labels every form control', () => {
    const html = renderHtml(SettingsPage, {});
    const ids = [...html.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(html, id).toContain(`for="${id}"`);
  });

  it('is written in Chinese for a Chinese reader, with the heuristic note', () => {
    i18n.setLocale('zh-CN');
    const text = textOf(renderHtml(SettingsPage, {}));
    expect(text).toContain('语言与主题');
    expect(text).toContain('没有模型时（启发式模式），Engram 仍会记录、记住并摘要你的对话');
    expect(text).not.toMatch(/settings:|recall:|jobs:/);
  });
});
