import { afterEach, describe, expect, it } from 'vitest';
import type { Component } from 'svelte';
import { i18n } from '$lib/ui/i18n/i18n.svelte';
import { renderHtml, textOf } from '$lib/ui/components/settings/test-render';
import Backup from './backup/+page.svelte';
import General from './general/+page.svelte';
import Maintenance from './maintenance/+page.svelte';
import Memory from './memory/+page.svelte';
import Model from './model/+page.svelte';
import Privacy from './privacy/+page.svelte';
import Storage from './storage/+page.svelte';

afterEach(() => i18n.setLocale('en'));

/** Issue 15: each settings section is a page of its own (/settings/<id>). */
const PAGES: [string, Component][] = [
  ['general', General as Component],
  ['model', Model as Component],
  ['privacy', Privacy as Component],
  ['memory', Memory as Component],
  ['storage', Storage as Component],
  ['maintenance', Maintenance as Component],
  ['backup', Backup as Component],
];

describe('settings pages', () => {
  it.each(PAGES)('/settings/%s holds its section', (id, page) => {
    const html = renderHtml(page, {});
    expect(html).toMatch(new RegExp(`<section id="${id}"[^>]*aria-labelledby="${id}-title"`));
  });

  it('carries the test ids the end-to-end tests use', () => {
    const html = PAGES.map(([, page]) => renderHtml(page, {})).join('');
    for (const id of ['model-test', 'maintenance-run', 'maintenance-last', 'storage-info', 'erase-everything']) expect(html).toContain(`data-testid="${id}"`);
  });

  it('labels every form control', () => {
    const html = PAGES.map(([, page]) => renderHtml(page, {})).join('');
    const ids = [...html.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(html, id).toContain(`for="${id}"`);
  });

  it('is written in Chinese for a Chinese reader, with the heuristic note', () => {
    i18n.setLocale('zh-CN');
    const text = PAGES.map(([, page]) => textOf(renderHtml(page, {}))).join(' ');
    expect(text).toContain('语言与主题');
    expect(text).toContain('没有模型时（启发式模式），Engram 仍会记录、记住并摘要你的对话');
    expect(text).toContain('清除本设备上的全部数据');
    expect(text).not.toMatch(/settings:|recall:|jobs:|shell:/);
  });
});
