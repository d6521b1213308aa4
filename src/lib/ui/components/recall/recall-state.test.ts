import { describe, expect, it, vi } from 'vitest';
import { createCaller, type EngineCaller } from '../../../engine/client/caller';
import { createTestEngine, expectOk } from '../../../engine/testing';

// The recall page's state talks to the app's one connection; here it is an engine in memory.
const hold: { engine: EngineCaller | null } = { engine: null };
vi.mock('../../app/connection.svelte', () => ({
  connection: {
    ready: true,
    embeddings: null,
    get engine() {
      return hold.engine;
    },
  },
}));

const { recallSearch } = await import('./recall-state.svelte');

describe('the recall page: results a page at a time', () => {
  it('"more" is not lost to a refresh that comes while it reads (a write elsewhere)', async () => {
    const t = await createTestEngine();
    hold.engine = createCaller({ call: (req) => t.engine.handle(req) });
    const s = expectOk(await t.engine.call('session.create', { title: 'Payments' }));
    for (let i = 0; i < 30; i++) {
      t.clock.advance(1000);
      expectOk(await t.engine.call('message.append', { sessionId: s.id, role: 'user', content: `processPayment attempt ${i}` }));
    }
    recallSearch.query = 'processPayment';
    await recallSearch.search();
    expect(recallSearch.items).toHaveLength(20);
    expect(recallSearch.total).toBe(30);

    const more = recallSearch.loadMore();
    recallSearch.refresh();
    await more;
    await vi.waitFor(() => expect(recallSearch.loading).toBe(false));
    expect(recallSearch.items).toHaveLength(30);
    expect(new Set(recallSearch.items.map((i) => i.message.id)).size).toBe(30);
  });
});
