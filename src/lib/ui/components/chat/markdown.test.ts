// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown: a reply is formatted, never executed', () => {
  it.each([
    ['**bold** and `code`', ['<strong>bold</strong>', '<code>code</code>']],
    ['```ts\nconst a = 1;\n```', ['<pre><code class="language-ts">const a = 1;\n</code></pre>']],
    ['- one\n- two', ['<li>one</li>', '<li>two</li>']],
    ['[site](https://example.org)', ['href="https://example.org"', 'rel="noopener noreferrer nofollow"', 'target="_blank"']],
  ])('%s', (md, parts) => {
    const html = renderMarkdown(md);
    for (const p of parts) expect(html).toContain(p);
  });

  it.each([
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '[click](javascript:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '<svg onload=alert(1)>',
    '<div style="background:url(javascript:alert(1))">x</div>',
  ])('neutralises %s', (md) => {
    const doc = new DOMParser().parseFromString(`<body>${renderMarkdown(md)}</body>`, 'text/html');
    expect(doc.querySelectorAll('script, iframe, svg, img, style, object, embed, form')).toHaveLength(0);
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of el.attributes) {
        expect(attr.name).not.toMatch(/^on|^style$/i);
        expect(attr.value).not.toMatch(/^\s*javascript:/i);
      }
    }
  });

  it('shows raw HTML as text instead of dropping what the model wrote', () => {
    expect(renderMarkdown('use <b>tags</b> carefully')).toContain('&lt;b&gt;tags&lt;/b&gt;');
  });
});
