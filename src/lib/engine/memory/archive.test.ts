import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';

const MINUTE = 60_000;

describe('working memory archive (001 "Working memory auto-cleanup … 归档到长期记忆")', () => {
  it('an expiring working memory leaves its context variables and lasting topic as inferred memories, once', async () => {
    const t = await createTestEngine();
    const s = expectOk(await t.engine.call('session.create', {}));
    for (const text of ['poolSize = 20 for the OrderService', 'OrderService times out under load', 'OrderService retries twice']) {
      t.clock.advance(MINUTE);
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: text }));
    }
    t.clock.advance(31 * MINUTE);
    const swept = expectOk(await t.engine.call('workingMemory.sweep', {}));
    expect(swept.removed).toEqual([s.id]);
    const archived = expectOk(await t.engine.call('memory.list', { source: 'inferred' })).items;
    expect(swept.archived).toBe(archived.length);
    expect(archived.map((m) => [m.category, m.key, m.confidence, m.sessionId]).sort()).toEqual([
      ['fact', 'fact.context.poolsize', 0.6, s.id],
      ['pattern', 'pattern.topic.orderservice', 0.6, s.id],
    ]);

    // The same state archived again (a later working memory of the session expiring) adds nothing …
    const again = async (text: string) => {
      t.clock.advance(MINUTE);
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: text }));
      expectOk(await t.engine.call('workingMemory.update', { sessionId: s.id, currentTopic: 'OrderService' }));
      t.clock.advance(31 * MINUTE);
      return expectOk(await t.engine.call('workingMemory.sweep', {})).archived;
    };
    expect(await again('poolSize = 20 again')).toBe(0);
    expect(expectOk(await t.engine.call('memory.list', {})).total).toBe(2);
    // … and a changed variable updates its memory in place.
    expect(await again('poolSize = 32 now')).toBe(1);
    const pool = expectOk(await t.engine.call('memory.list', { query: 'poolSize' })).items;
    expect(pool.map((m) => [m.value, m.version])).toEqual([[{ name: 'poolSize', value: '32' }, 2]]);
  });
});
