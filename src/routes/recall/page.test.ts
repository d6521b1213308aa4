import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '$lib/ui/i18n/i18n.svelte';
import { renderHtml, textOf } from '$lib/ui/components/settings/test-render';
import RecallPage from './+page.svelte';

afterEach(() => i18n.setLocale('en'));

describe('recall page before a search', () => {
  it('offers a labelled search box and explains what is searched', () => {
    const html = renderHtml(RecallPage, {});
    expect(html).toMatch(/<input id="recall-search" type="search"[^>]*data-testid="recall-search"/);
    expect(html).toContain('for="recall-search"');
    expect(html).toContain('data-testid="recall-empty-start"');
    expect(textOf(html)).toContain('Chinese and English both work');
  });

  it('labels every filter', () => {
    const html = renderHtml(RecallPage, {});
    const ids = [...html.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(expect.arrayContaining(['recall-search', 'recall-session', 'recall-from', 'recall-to', 'recall-role']));
    for (const id of ids) expect(html, id).toContain(`for="${id}"`);
  });

  it('reads in Chinese with no untranslated key', () => {
    i18n.setLocale('zh-CN');
    const text = textOf(renderHtml(RecallPage, {}));
    expect(text).toContain('问问你的记忆');
    expect(text).not.toMatch(/recall:|common:/);
  });
});
