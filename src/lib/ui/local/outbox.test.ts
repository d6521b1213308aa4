import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fail } from '../../domain/errors';
import { createCaller, type EngineCaller } from '../../engine/client/caller';
import { createTestEngine, expectOk } from '../../engine/testing';
import { draftStore } from './drafts';
import { LocalDb } from './local-db';
import { createOutbox } from './outbox';

let n = 0;
const freshDb = () => new LocalDb(`engram-test-${++n}`);

/** The real engine behind a switch: while `down`, every call answers DB_UNAVAILABLE (no database reachable). */
async function switchableEngine() {
  const t = await createTestEngine();
  const state = { down: true };
  const real = createCaller({ call: (req) => t.engine.handle(req) });
  const engine: EngineCaller = {
    call: (method, input, opts) =>
      state.down ? Promise.resolve(fail('DB_UNAVAILABLE', 'not open yet')) : real.call(method, input, opts),
  };
  return { t, state, engine };
}

describe('outbox: writes made while no database is reachable', () => {
  it('keeps the write in IndexedDB and drains it once the database is there', async () => {
    const { t, state, engine } = await switchableEngine();
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    state.down = true;
    const db = freshDb();
    const outbox = createOutbox(db, engine);
    const res = await outbox.write('message.append', { sessionId: session.id, role: 'user', content: 'written offline' });
    expect(res).toMatchObject({ ok: false, queued: true });
    expect(await outbox.count()).toBe(1);
    state.down = false;
    expect(await outbox.drain()).toEqual({ applied: 1, remaining: 0 });
    const msgs = expectOk(await engine.call('message.list', { sessionId: session.id }));
    expect(msgs.map((m) => m.content)).toEqual(['written offline']);
    void t;
  });

  it('drains idempotently: a replay of the same op id adds nothing', async () => {
    const { state, engine } = await switchableEngine();
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    const db = freshDb();
    // The same queued op, drained from two outboxes (two tabs, or a drain interrupted after applying).
    const row = { opId: 'op-fixed-000001', method: 'message.append' as const, input: { sessionId: session.id, role: 'user', content: 'once' }, createdAt: 1, seq: 1, attempts: 1 };
    await db.outbox.put(row);
    const second = freshDb();
    await second.outbox.put(row);
    await createOutbox(db, engine).drain();
    await createOutbox(second, engine).drain();
    const msgs = expectOk(await engine.call('message.list', { sessionId: session.id }));
    expect(msgs).toHaveLength(1);
  });

  it('stops at the first write that still cannot reach the database, keeping order', async () => {
    const { state, engine } = await switchableEngine();
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    state.down = true;
    const db = freshDb();
    const outbox = createOutbox(db, engine);
    for (const content of ['one', 'two', 'three']) await outbox.write('message.append', { sessionId: session.id, role: 'user', content });
    expect(await outbox.drain()).toEqual({ applied: 0, remaining: 3 });
    state.down = false;
    await outbox.drain();
    const msgs = expectOk(await engine.call('message.list', { sessionId: session.id }));
    expect(msgs.map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('a write the engine refuses (invalid) leaves the outbox instead of blocking it', async () => {
    const { state, engine } = await switchableEngine();
    const db = freshDb();
    const outbox = createOutbox(db, engine);
    await outbox.write('message.append', { sessionId: 'gone', role: 'user', content: 'orphan' });
    state.down = false;
    expect(await outbox.drain()).toEqual({ applied: 0, remaining: 0 });
  });
});

describe('drafts: every keystroke survives a reload', () => {
  it('saves, loads, clears', async () => {
    const db = freshDb();
    const drafts = draftStore(db);
    await drafts.save('chat:new', 'half a thought');
    expect(await draftStore(db).load('chat:new')).toBe('half a thought');
    expect(await drafts.any()).toBe(true);
    await drafts.clear('chat:new');
    expect(await drafts.load('chat:new')).toBe('');
  });
});
