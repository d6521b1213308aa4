import type { Component } from 'svelte';
import { render } from 'svelte/server';

/**
 * Test helper: a component rendered to HTML on the server (no DOM library needed), with Svelte's
 * hydration comments and scoped-style classes removed so assertions read like the markup people get.
 */
export function renderHtml<P extends Record<string, unknown>>(component: Component<P>, props: P): string {
  const { body } = render(component as Component<Record<string, unknown>>, { props });
  return body
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\s*\bsvelte-[a-z0-9]+\b/g, '')
    .replace(/ class=""/g, '');
}

/** The visible text of rendered HTML, whitespace collapsed. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
