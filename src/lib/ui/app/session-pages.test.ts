import { describe, expect, it } from 'vitest';
import { createCaller } from '../../engine/client/caller';
import { createTestEngine, expectOk } from '../../engine/testing';
import { SessionPages } from './session-pages.svelte';

async function withSessions(n: number) {
  const t = await createTestEngine();
  const engine = createCaller({ call: (req) => t.engine.handle(req) });
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const s = expectOk(await engine.call('session.create', { title: `c${i}` }));
    if (i % 10 === 0) expectOk(await engine.call('session.update', { id: s.id, isCollected: true }));
  }
  return { t, engine };
}

describe('conversation lists, a page at a time', () => {
  it('no fixed cap: pages on to the last of 450 conversations', async () => {
    const { engine } = await withSessions(450);
    const pages = new SessionPages(() => engine);
    await pages.reload();
    expect(pages.items).toHaveLength(50);
    expect(pages.total).toBe(450);
    while (pages.hasMore) await pages.loadMore();
    expect(pages.items).toHaveLength(450);
    expect(new Set(pages.items.map((s) => s.id)).size).toBe(450);
    expect(pages.items.at(-1)?.title).toBe('c0');
  });

  it('reload reads as many as are shown, past one call\'s limit of 200', async () => {
    const { t, engine } = await withSessions(260);
    const pages = new SessionPages(() => engine, () => ({}), 130);
    await pages.reload();
    await pages.loadMore();
    t.clock.advance(1000);
    expectOk(await engine.call('session.create', { title: 'newest' }));
    await pages.reload();
    expect(pages.items).toHaveLength(260);
    expect(pages.items[0]?.title).toBe('newest');
    expect(pages.total).toBe(261);
  });

  it('"more" is not lost to a reload that comes while it reads (a write elsewhere), and a burst of reloads reads once', async () => {
    const { engine } = await withSessions(60);
    let lists = 0;
    const counted = { call: ((m, i, o) => (m === 'session.list' && lists++, engine.call(m, i, o))) as typeof engine.call };
    const pages = new SessionPages(() => counted);
    await pages.reload();
    expect(pages.items).toHaveLength(50);
    const more = pages.loadMore();
    const reloads = [pages.reload(), pages.reload(), pages.reload()];
    await Promise.all([more, ...reloads]);
    expect(pages.items).toHaveLength(60);
    expect(pages.items.at(-1)?.title).toBe('c0');
    expect(pages.hasMore).toBe(false);
    expect(pages.loading).toBe(false);
    // The first reload, one "more", one reload for the burst.
    expect(lists).toBe(3);
  });

  it('follows its filter (starred only)', async () => {
    const { engine } = await withSessions(30);
    const pages = new SessionPages(() => engine, () => ({ starredOnly: true }));
    await pages.reload();
    expect(pages.items.map((s) => s.title)).toEqual(['c20', 'c10', 'c0']);
    expect(pages.hasMore).toBe(false);
  });

  it('follows change events: only the conversations a write changed are read again, and the list ends as a fresh read would', async () => {
    const { t, engine } = await withSessions(60);
    const events: import('../../engine/engine').ChangeEvent[] = [];
    t.engine.onChange((c) => events.push(c));
    let calls = 0;
    const counted = { call: ((m, i, o) => (calls++, engine.call(m, i, o))) as typeof engine.call };
    const pages = new SessionPages(() => counted);
    await pages.reload();
    const old = pages.total;
    const oldest = expectOk(await engine.call('session.list', { limit: 1, offset: 59 })).items[0];
    const top = pages.items[0];
    if (!oldest || !top) throw new Error('no sessions');

    // A message in the oldest conversation (not even shown): it comes to the top; a new one; the newest deleted.
    t.clock.advance(1000);
    expectOk(await engine.call('message.append', { sessionId: oldest.id, role: 'user', content: 'back to this one' }));
    t.clock.advance(1000);
    const fresh = expectOk(await engine.call('session.create', { title: 'brand new' }));
    expectOk(await engine.call('session.delete', { id: top.id }));
    // A write that changes no conversation says so: nothing to read.
    expectOk(await engine.call('memory.create', { content: 'likes tea' }));
    expect(events.map((e) => e.sessions)).toEqual([{ changed: [oldest.id], deleted: [] }, { changed: [fresh.id], deleted: [] }, { changed: [], deleted: [top.id] }, undefined]);

    calls = 0;
    for (const e of events) if (e.sessions) await pages.applyChange(e.sessions);
    expect(calls).toBe(3);
    // The rows it holds are the first rows of the list, as a read of that many gives them.
    const expected = expectOk(await engine.call('session.list', { limit: pages.items.length }));
    expect(pages.items).toEqual(expected.items);
    expect(pages.items[0]?.title).toBe('brand new');
    expect(pages.items[1]?.id).toBe(oldest.id);
    expect(pages.total).toBe(old);
  });
});
