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
    expect(await outbox.drain()).toEqual({ applied: 1, remaining: 0, refused: 0 });
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
    expect(await outbox.drain()).toEqual({ applied: 0, remaining: 3, refused: 0 });
    state.down = false;
    await outbox.drain();
    const msgs = expectOk(await engine.call('message.list', { sessionId: session.id }));
    expect(msgs.map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('a drain that meets a full disk keeps the writes waiting, in order, and applies them once there is room (issue 13)', async () => {
    const { state, engine } = await switchableEngine();
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    state.down = true;
    const db = freshDb();
    let full = true;
    const filling: EngineCaller = {
      call: (method, input, opts) => (full && !state.down ? Promise.resolve(fail('QUOTA_EXCEEDED', 'no room')) : engine.call(method, input, opts)),
    };
    const outbox = createOutbox(db, filling);
    for (const content of ['a', 'b']) await outbox.write('message.append', { sessionId: session.id, role: 'user', content });
    state.down = false;
    expect(await outbox.drain()).toEqual({ applied: 0, remaining: 2, refused: 0 });
    full = false;
    expect(await outbox.drain()).toEqual({ applied: 2, remaining: 0, refused: 0 });
    expect(expectOk(await engine.call('message.list', { sessionId: session.id })).map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('a write the engine refuses is kept with its error (never dropped), does not block the others, and waits for retry or discard', async () => {
    const { state, engine } = await switchableEngine();
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    const doomed = expectOk(await engine.call('session.create', {}));
    state.down = true;
    const db = freshDb();
    const outbox = createOutbox(db, engine);
    await outbox.write('message.append', { sessionId: doomed.id, role: 'user', content: 'written offline, then its conversation went' });
    await outbox.write('message.append', { sessionId: session.id, role: 'user', content: 'after it' });
    state.down = false;
    expectOk(await engine.call('session.delete', { id: doomed.id }));
    expect(await outbox.drain()).toEqual({ applied: 1, remaining: 0, refused: 1 });
    const [refused] = await outbox.refused();
    expect(refused).toMatchObject({ method: 'message.append', input: { content: 'written offline, then its conversation went' }, refused: { code: 'NOT_FOUND' } });
    // Later drains pass over it: only the person decides.
    expect(await outbox.drain()).toEqual({ applied: 0, remaining: 0, refused: 1 });
    expect(await outbox.retry(refused?.opId as string)).toMatchObject({ kind: 'refused', error: { code: 'NOT_FOUND' } });
    await outbox.discard(refused?.opId as string);
    expect(await outbox.counts()).toEqual({ remaining: 0, refused: 0 });
  });

  it('a refused write that can now be applied goes in on retry, once', async () => {
    const { state, engine } = await switchableEngine();
    const db = freshDb();
    const outbox = createOutbox(db, engine);
    state.down = false;
    const session = expectOk(await engine.call('session.create', {}));
    // Refused for now (e.g. a momentary internal error): kept, then retried by the person.
    await db.outbox.put({
      opId: 'op-refused-0001',
      method: 'message.append',
      input: { sessionId: session.id, role: 'user', content: 'try me again' },
      createdAt: 1,
      seq: 1,
      attempts: 1,
      refused: { code: 'INTERNAL', message: 'x', at: 1 },
    });
    expect(await outbox.retry('op-refused-0001')).toEqual({ kind: 'applied' });
    expect(await outbox.retry('op-refused-0001')).toEqual({ kind: 'gone' });
    expect(expectOk(await engine.call('message.list', { sessionId: session.id })).map((m) => m.content)).toEqual(['try me again']);
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
