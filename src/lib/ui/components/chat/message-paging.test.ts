import { describe, expect, it } from 'vitest';
import { createCaller } from '../../../engine/client/caller';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { loadEarlier, loadLater, newestPage, pageAround, reread, type ListPage, type MessageWindow } from './message-paging';

/** A conversation of `turns` user/assistant turns, and a list function over it. */
async function conversation(turns: number) {
  const t = await createTestEngine();
  const engine = createCaller({ call: (req) => t.engine.handle(req) });
  const s = expectOk(await engine.call('session.create', {}));
  const ids: number[] = [];
  for (let i = 1; i <= turns; i++) {
    ids.push(expectOk(await engine.call('message.append', { sessionId: s.id, role: 'user', content: `q${i}` })).message.id);
    ids.push(expectOk(await engine.call('message.append', { sessionId: s.id, role: 'assistant', content: `a${i}` })).message.id);
  }
  const list: ListPage = (q) => engine.call('message.list', { sessionId: s.id, ...q });
  return { engine, session: s, ids, list };
}

const texts = (w: MessageWindow) => w.messages.map((m) => m.content);
const consecutive = (w: MessageWindow, all: number[]) => {
  const start = all.indexOf(w.messages[0]?.id as number);
  expect(w.messages.map((m) => m.id)).toEqual(all.slice(start, start + w.messages.length));
};

describe('a conversation of any length, a window at a time (002 REQ-LTM-001)', () => {
  it('opens on the newest page and loads earlier pages until the first message', async () => {
    const c = await conversation(130); // 260 messages
    let w = expectOk(await newestPage(c.list));
    expect(w).toMatchObject({ hasEarlier: true, hasLater: false });
    expect(w.messages).toHaveLength(100);
    expect(texts(w).at(-1)).toBe('a130');
    w = expectOk(await loadEarlier(c.list, w));
    w = expectOk(await loadEarlier(c.list, w));
    expect(w.messages).toHaveLength(260);
    expect(w.hasEarlier).toBe(false);
    expect(texts(w)[0]).toBe('q1');
    consecutive(w, c.ids);
  });

  it('jumps to an old message (as from the recall page): a page around it, then later pages up to the newest', async () => {
    const c = await conversation(200); // 400 messages; the newest 100 would never reach q5
    const target = c.ids[8] as number; // q5
    const around = expectOk(await pageAround(c.list, target));
    expect(around.found).toBe(true);
    expect(around.messages.map((m) => m.id)).toContain(target);
    expect(around).toMatchObject({ hasEarlier: false, hasLater: true });
    consecutive(around, c.ids);
    let w: MessageWindow = around;
    for (let i = 0; i < 10 && w.hasLater; i++) w = expectOk(await loadLater(c.list, w));
    expect(w.hasLater).toBe(false);
    expect(texts(w).at(-1)).toBe('a200');
    consecutive(w, c.ids);
  });

  it('a message deep in the middle has pages on both sides', async () => {
    const c = await conversation(200);
    const target = c.ids[200] as number;
    const w = expectOk(await pageAround(c.list, target));
    expect(w).toMatchObject({ found: true, hasEarlier: true, hasLater: true });
    expect(w.messages).toHaveLength(100);
    consecutive(w, c.ids);
  });

  it('a message that is not in the conversation (deleted, or another one): the newest page, and says so', async () => {
    const c = await conversation(3);
    const other = expectOk(await c.engine.call('session.create', {}));
    const elsewhere = expectOk(await c.engine.call('message.append', { sessionId: other.id, role: 'user', content: 'elsewhere' })).message.id;
    const w = expectOk(await pageAround(c.list, elsewhere));
    expect(w.found).toBe(false);
    expect(texts(w).at(-1)).toBe('a3');
  });

  it('after a write anywhere, the same stretch again: new messages join at the newest end; a window in the middle stays put', async () => {
    const c = await conversation(150);
    let w = expectOk(await newestPage(c.list));
    expectOk(await c.engine.call('message.append', { sessionId: c.session.id, role: 'user', content: 'from another tab' }));
    w = expectOk(await reread(c.list, w));
    expect(texts(w).at(-1)).toBe('from another tab');
    expect(w.messages).toHaveLength(101);
    const middle = expectOk(await pageAround(c.list, c.ids[100] as number));
    expectOk(await c.engine.call('message.update', { id: c.ids[100] as number, isCollected: true }));
    const again = expectOk(await reread(c.list, middle));
    expect(again.messages.map((m) => m.id)).toEqual(middle.messages.map((m) => m.id));
    expect(again.messages.find((m) => m.id === c.ids[100])?.isCollected).toBe(true);
    expect(again.hasLater).toBe(true);
  });
});
