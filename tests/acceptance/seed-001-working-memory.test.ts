/** Seed 001 working-memory scenarios against the real engine. */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { newSession } from './helpers';

describe('seed 001 working memory', () => {
  it('001 Working memory creation on new session: turn_count 1, created_at = updated_at = now', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    t.clock.advance(5000);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: '我们来优化 OrderService 的性能' }));
    const wm = expectOk(await t.engine.call('workingMemory.get', { sessionId: s.id }));
    expect(wm).toMatchObject({ sessionId: s.id, turnCount: 1, createdAt: t.clock.now(), updatedAt: t.clock.now() });
  });

  it('001 Working memory update on each turn: turn_count, updated_at, topic and variables follow the conversation', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'I am tuning the database connection pool' }));
    const created = expectOk(await t.engine.call('workingMemory.get', { sessionId: s.id }));
    t.clock.advance(60_000);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'assistant', content: 'What is the current size?' }));
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'poolSize = 20 and I am worried it is too small' }));
    const wm = expectOk(await t.engine.call('workingMemory.get', { sessionId: s.id }));
    expect(wm.turnCount).toBe(2);
    expect(wm.createdAt).toBe(created.createdAt);
    expect(wm.updatedAt).toBe(t.clock.now());
    expect(wm.contextVariables).toMatchObject({ poolSize: '20' });
    expect(wm.lastEmotion).toBe('anxiety');
    expect(wm.currentTopic).toBeTruthy();
    // With a model, its analysis replaces the heuristic topic.
    const analysed = expectOk(await t.engine.call('workingMemory.update', { sessionId: s.id, currentTopic: 'connection pool sizing' }));
    expect(analysed.currentTopic).toBe('connection pool sizing');
  });

  it('001 Working memory auto-cleanup: removed after 30 idle minutes', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'deadline 是 周五' }));
    t.clock.advance(29 * 60_000);
    expect(expectOk(await t.engine.call('workingMemory.sweep', {})).removed).toEqual([]);
    t.clock.advance(2 * 60_000);
    expect(expectOk(await t.engine.call('workingMemory.sweep', {})).removed).toEqual([s.id]);
    expect(await t.engine.call('workingMemory.get', { sessionId: s.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('001 Get working memory for session: unknown session → NOT_FOUND', async () => {
    const t = await createTestEngine();
    expect(await t.engine.call('workingMemory.get', { sessionId: 'no-such-session' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('rebuilds a recent session’s working memory after a worker restart', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: 'refactor PaymentHandler please' }));
    // Simulate a new leader: a second engine over the same database sees no live memory.
    const { createEngine } = await import('../../src/lib/engine/engine');
    const { migrations } = await import('../../src/lib/engine/store/migrations');
    const second = createEngine({ ...t.engine.env }, migrations);
    const wm = expectOk(await second.call('workingMemory.get', { sessionId: s.id }));
    expect(wm.turnCount).toBe(1);
    expect(wm.currentTopic).toBe('PaymentHandler');
  });
});
