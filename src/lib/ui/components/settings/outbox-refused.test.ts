import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.svelte';
import type { RefusedWrite } from '../../local/outbox';
import OutboxRefused from './outbox-refused.svelte';
import { renderHtml, textOf } from './test-render';

const refused: RefusedWrite = {
  opId: 'op-1',
  method: 'message.append',
  input: { sessionId: 's', role: 'user', content: '离线时写下的话' },
  createdAt: Date.UTC(2026, 0, 17, 9),
  seq: 1,
  attempts: 2,
  refused: { code: 'NOT_FOUND', message: 'No conversation with that `sessionId`.', at: Date.UTC(2026, 0, 17, 10) },
};

afterEach(() => i18n.setLocale('en'));

describe('refused writes in settings', () => {
  it('shows what the write was, its text, why it was refused, and retry / discard', () => {
    const html = renderHtml(OutboxRefused, { items: [refused] });
    const text = textOf(html);
    expect(text).toContain('Changes that could not be saved (1)');
    expect(text).toContain('A message in a conversation');
    expect(text).toContain('离线时写下的话');
    expect(text).toMatch(/no longer exists/i);
    expect(html).toContain('data-testid="outbox-retry"');
    expect(html).toContain('data-testid="outbox-discard"');
  });

  it('in Chinese', () => {
    i18n.setLocale('zh-CN');
    const text = textOf(renderHtml(OutboxRefused, { items: [refused] }));
    expect(text).toContain('未能保存的更改（1）');
    expect(text).toContain('对话中的一条消息');
    expect(text).toContain('丢弃');
  });

  it('nothing refused: nothing shown', () => {
    expect(textOf(renderHtml(OutboxRefused, { items: [] }))).toBe('');
  });
});
