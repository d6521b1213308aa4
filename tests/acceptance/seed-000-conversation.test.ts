/** Seed 000: conversation persistence, new session, session summaries (the window is tested in domain/conversation). */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, T0 } from '../../src/lib/engine/testing';
import { newSession, turn } from './helpers';

describe('seed 000 conversation', () => {
  it('000 消息持久化: user and assistant messages are written with session, role, content, time and is_collected', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const { user, assistant } = await turn(t, s.id, '你好', '你好！有什么可以帮你？');
    const rows = t.driver.all<{ session_id: string; role: string; content: string; created_at: number; is_collected: number; turn_no: number }>(
      'SELECT session_id, role, content, created_at, is_collected, turn_no FROM messages ORDER BY id',
    );
    expect(rows).toEqual([
      { session_id: s.id, role: 'user', content: '你好', created_at: user.storedAt, is_collected: 0, turn_no: 1 },
      { session_id: s.id, role: 'assistant', content: '你好！有什么可以帮你？', created_at: assistant.storedAt, is_collected: 0, turn_no: 1 },
    ]);
    expect(user.storedAt).toBeGreaterThan(T0);
    const starred = expectOk(await t.engine.call('message.update', { id: assistant.turnId, isCollected: true }));
    expect(starred.isCollected).toBe(true);
  });

  it('000 新建会话: a new session has a new id and an empty buffer', async () => {
    const t = await createTestEngine();
    const a = await newSession(t);
    await turn(t, a.id, 'hello', 'hi');
    const b = await newSession(t);
    expect(b.id).not.toBe(a.id);
    expect(expectOk(await t.engine.call('message.list', { sessionId: b.id }))).toEqual([]);
    expect(b.turnCount).toBe(0);
  });

  it('000 新会话首条触发摘要写入: title and snippet are written after the first reply', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    expect(s.title).toBe('');
    t.clock.advance(1000);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'How do I fix a TypeError in processOrder? It crashes on null.' }));
    expect(expectOk(await t.engine.call('session.get', { id: s.id })).summarizedAt).toBeNull();
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'Check for null before reading order.items.' }));
    const after = expectOk(await t.engine.call('session.get', { id: s.id }));
    expect(after.title).toBe('How do I fix a TypeError in processOrder?');
    expect(after.snippet).toContain('Check for null');
    expect(after.summarizedAt).not.toBeNull();
  });

  it('a renamed session keeps its name when the first reply arrives; star and delete work', async () => {
    const t = await createTestEngine();
    const s = await newSession(t, { title: 'My plan' });
    await turn(t, s.id, 'first', 'reply');
    expect(expectOk(await t.engine.call('session.get', { id: s.id })).title).toBe('My plan');
    expect(expectOk(await t.engine.call('session.update', { id: s.id, isCollected: true })).isCollected).toBe(true);
    const starred = expectOk(await t.engine.call('session.list', { starredOnly: true }));
    expect(starred.items.map((x) => x.id)).toEqual([s.id]);
    const report = expectOk(await t.engine.call('session.delete', { id: s.id }));
    expect(report.turns_deleted).toBe(2);
    expect(await t.engine.call('session.get', { id: s.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('REQ-LTM-001 unlimited turns: 1,200 turns in one session keep their order and numbers', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    for (let i = 1; i <= 1200; i++) {
      t.clock.advance(10);
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: `turn ${i}` }));
    }
    const session = expectOk(await t.engine.call('session.get', { id: s.id }));
    expect(session.turnCount).toBe(1200);
    const last = expectOk(await t.engine.call('message.list', { sessionId: s.id, limit: 3 }));
    expect(last.map((m) => m.turnNo)).toEqual([1198, 1199, 1200]);
  });

  it('cleanup of everything needs confirmation and deletes nothing without it', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    await turn(t, s.id, 'keep me', 'ok');
    const refused = await t.engine.call('cleanup.run', { all: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'MEMORY_CLEAR_CONFIRM_REQUIRED' } });
    expect(expectOk(await t.engine.call('session.list', {})).total).toBe(1);
    const done = expectOk(await t.engine.call('cleanup.run', { all: true, confirm: true }));
    expect(done).toMatchObject({ conversations_deleted: 1, turns_deleted: 2 });
  });
});
