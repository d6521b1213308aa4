import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * Model replies are markdown; everything a model (or an imported file) writes is untrusted. marked turns
 * it into HTML, DOMPurify keeps only formatting (no scripts, no event handlers, no forms, no styles),
 * and every link opens outside the app without a referrer. Raw HTML in the markdown is escaped, not
 * rendered: a reply can show `<script>` as text but never run it.
 */
const renderer = new marked.Renderer();
renderer.html = ({ text }) => escapeHtml(text);

marked.setOptions({ gfm: true, breaks: true, async: false });

const PURIFY = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'],
  ALLOWED_ATTR: ['href', 'title', 'class'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
};

let hooked = false;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function renderMarkdown(markdown: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    });
    hooked = true;
  }
  const html = marked.parse(markdown, { renderer }) as string;
  return DOMPurify.sanitize(html, PURIFY) as string;
}
