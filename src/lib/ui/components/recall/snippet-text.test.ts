import { describe, expect, it } from 'vitest';
import { highlightSnippet } from '../../../domain/text/snippet';
import { renderHtml } from '../settings/test-render';
import SnippetText from './snippet-text.svelte';

describe('snippet text', () => {
  it('marks the hits and nothing else', () => {
    const html = renderHtml(SnippetText, { snippet: highlightSnippet('我们今天去北京大学学习', ['北京']) });
    expect(html).toContain('我们今天去<mark>北京</mark>大学学习');
    expect(html.match(/<mark>/g)).toHaveLength(1);
  });

  it('shows markup in a message as text, never as HTML', () => {
    const text = 'see <img src=x onerror="alert(1)"> and <b>bold</b> processPayment';
    const html = renderHtml(SnippetText, { snippet: highlightSnippet(text, ['processPayment']) });
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img');
    expect(html).toContain('<mark>processPayment</mark>');
  });

  it('keeps the ellipsis of a cut snippet exactly once', () => {
    const long = `${'开头的内容很长。'.repeat(30)}这里提到了 processPayment 的问题。${'后面还有很多内容。'.repeat(30)}`;
    const html = renderHtml(SnippetText, { snippet: highlightSnippet(long, ['processPayment'], { maxChars: 60 }) });
    expect(html).toContain('<mark>processPayment</mark>');
    expect(html.match(/…/g)).toHaveLength(2);
  });
});
