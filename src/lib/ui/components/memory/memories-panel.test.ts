import { afterEach, describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { i18n } from '../../i18n/i18n.svelte';
import { renderHtml, textOf } from '../settings/test-render';
import { toEditDraft } from './drafts';
import { MemoriesState } from './memories-state.svelte';
import MemoriesPanel from './memories-panel.svelte';
import { engineDeps } from './test-deps';

afterEach(() => i18n.setLocale('en'));

/** A Memories tab in a real state: memories written through the engine, then rendered to HTML. */
async function seeded() {
  const t = await engineDeps();
  const s = new MemoriesState(t.deps);
  await s.create({ content: 'I like <b>oolong</b> tea', category: 'preference', tagsText: 'drink' });
  await s.update({ ...toEditDraft(s.detail!.memory), content: 'I like <b>oolong</b> tea a lot', confidencePercent: 80 });
  expectOk(await t.engine.call('memory.create', { content: 'My cat is called Mochi', category: 'fact' }));
  await s.load();
  return { ...t, s };
}

const render = (s: MemoriesState) => renderHtml(MemoriesPanel, { state: s, onOpen: () => {} });

describe('the Memories tab, rendered', () => {
  it('lists each memory with its badges and the total', async () => {
    const { s } = await seeded();
    const html = render(s);
    expect(html.match(/data-testid="memory-row"/g)).toHaveLength(2);
    expect(textOf(html.match(/<p class="total[^"]*"[^>]*data-testid="memory-total"[^>]*>[^<]*<\/p>/)![0])).toBe('1–2 of 2');
    const text = textOf(html);
    expect(text).toContain('Preference');
    expect(text).toContain('Confidence 80%');
    expect(text).toContain('You said it');
    expect(text).toContain('Not used in a reply yet');
    expect(html).toContain('aria-current="true"');
  });

  it('shows memory text as text, never as markup', async () => {
    const { s } = await seeded();
    const html = render(s);
    expect(html).not.toContain('<b>oolong</b>');
    expect(html).toContain('&lt;b>oolong&lt;/b>');
  });

  it('opens the detail with every field, the value as JSON, the history and the actions', async () => {
    const { s } = await seeded();
    const html = render(s);
    const detail = html.slice(html.indexOf('data-testid="memory-detail"'));
    for (const testid of ['memory-edit', 'memory-undo', 'memory-delete', 'memory-history', 'memory-restore-version']) {
      expect(detail, testid).toContain(`data-testid="${testid}"`);
    }
    expect(detail).not.toContain('data-testid="memory-restore"');
    const text = textOf(detail);
    expect(text).toContain('Key preference.note.');
    expect(text).toContain('"I like <b>oolong</b> tea a lot"');
    expect(text).toContain('Added by hand or imported');
    // The edit: what changed, before → after, by whom.
    expect(detail).toMatch(/<del class="user-text">I like &lt;b>oolong&lt;\/b> tea<\/del>/);
    expect(detail).toMatch(/<ins class="user-text">I like &lt;b>oolong&lt;\/b> tea a lot<\/ins>/);
    expect(text).toContain('Confidence: 100% → 80%');
    expect(text).toContain('by You');
    expect(text).toContain('Current version');
  });

  it('offers "make current again" on a replaced memory and links to what replaced it', async () => {
    const { s, engine } = await seeded();
    const old = expectOk(await engine.call('memory.create', { content: 'I live in Beijing', category: 'fact', key: 'fact.city' }));
    expectOk(await engine.call('memory.create', { content: 'I live in Shanghai', category: 'fact', key: 'fact.city' }));
    await s.select(old.id);
    const html = render(s);
    expect(html).toContain('data-testid="memory-restore"');
    expect(textOf(html)).toContain('Replaced by I live in Shanghai');
  });

  it('links a learned memory to the message it came from', async () => {
    const { s, engine } = await seeded();
    const session = expectOk(await engine.call('session.create', { title: 'Food talk' }));
    const stored = expectOk(await engine.call('message.append', { sessionId: session.id, role: 'user', content: '我喜欢喝咖啡' }));
    const extracted = expectOk(await engine.call('memory.extract', { sessionId: session.id, userMessageId: stored.message.id }));
    const id = extracted.decisions.find((d) => d.kind === 'add')!.memoryId!;
    await s.select(id);
    const html = render(s);
    expect(html).toContain(`href="/chat?session=${session.id}&amp;message=${stored.message.id}"`);
    expect(textOf(html)).toContain('Your message in “Food talk”');
    expect(textOf(html)).toContain('by Learned from a conversation');
  });

  it('says so when nothing matches, and when nothing is remembered yet', async () => {
    const { s } = await seeded();
    s.query = 'zebra';
    await s.search();
    expect(render(s)).toContain('No memory matches the search and filters.');
    await s.clear(false);
    s.query = '';
    await s.search();
    expect(textOf(render(s))).toContain('Engram has not remembered anything yet.');
  });

  it('explains every term of a retrieval result', async () => {
    const { s } = await seeded();
    await s.retrieve('Which tea do I like?');
    const html = render(s);
    expect(html.match(/data-testid="memory-retrieve-result"/g)?.length).toBeGreaterThan(0);
    for (const term of ['keyword', 'category', 'recency', 'frequency', 'confidence']) expect(html).toContain(`data-term="${term}"`);
    expect(html).toContain('data-multiplier="preference" data-applied="true"');
    expect(html).toContain('data-multiplier="topic" data-applied="false"');
    const text = textOf(html);
    expect(text).toContain('× 0.4');
    expect(text).toContain('Asks about a preference');
    expect(text).toContain('Full-text match');
  });

  it('reads in Chinese', async () => {
    const { s } = await seeded();
    await s.retrieve('我喜欢什么茶？');
    i18n.setLocale('zh-CN');
    const text = textOf(render(s));
    for (const word of ['偏好', '你亲口说的', '记忆详情', '历史', '撤销上一次修改', '测试召回']) expect(text).toContain(word);
    expect(text).not.toMatch(/memory:|common:|\{\{/);
  });
});
