import { describe, expect, it, vi } from 'vitest';
import { createCaller } from '../client/caller';
import { createEngine, type Engine } from '../engine';
import { createSqliteWasmDriver } from '../store/sqlite-wasm-driver';
import { loadSqlite3 } from '../store/open-wasm';
import { migrations } from '../store/migrations';
import { createTestEngine, expectOk, type TestEngine } from '../testing';
import { createDbHost } from './db-host';
import type { RelayMessage } from './messages';
import { fakeLocks } from './testing';

/** A BroadcastChannel that can be told to lose the leader's answers, as if its tab died right after writing. */
class LossyChannel extends BroadcastChannel {
  dropResponses = false;
  override postMessage(message: RelayMessage): void {
    if (this.dropResponses && message.t === 'res') return;
    super.postMessage(message);
  }
}

const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** Tab A starts first and leads; tab B follows. Both reach `engine` when they lead. */
async function twoTabs(engine: Engine) {
  const locks = fakeLocks();
  const name = `relay-${Math.random()}`;
  const a = createDbHost({ openEngine: async () => engine, locks, channel: new BroadcastChannel(name), tabId: 'A' });
  await settle();
  const b = createDbHost({ openEngine: async () => engine, locks, channel: new BroadcastChannel(name), tabId: 'B' });
  await settle();
  return { a, b };
}

describe('several tabs (leader election over Web Locks, relay over BroadcastChannel)', () => {
  it('exactly one host leads; the other relays its calls and sees changes', async () => {
    const t = await createTestEngine();
    const { a, b } = await twoTabs(t.engine);
    expect(a.info().role).toBe('leader');
    expect(b.info().role).toBe('follower');
    const changes: string[] = [];
    b.subscribe((e) => {
      if (e.type === 'change') changes.push(e.method);
    });
    const caller = createCaller(b);
    const s = expectOk(await caller.call('session.create', { title: 'from B' }));
    expect(expectOk(await createCaller(a).call('session.get', { id: s.id })).title).toBe('from B');
    await settle();
    expect(changes).toContain('session.create');
    a.close();
    b.close();
  });

  it('the leader closing mid-way loses no write and applies none twice', async () => {
    const t = await createTestEngine();
    // Closing tab A closes its own connection; the file (here: the in-memory database) stays for B.
    const shared: Engine = { ...t.engine, close: () => {} };
    const locks = fakeLocks();
    const name = `relay-${Math.random()}`;
    const leaderChannel = new LossyChannel(name);
    const a = createDbHost({ openEngine: async () => shared, locks, channel: leaderChannel, tabId: 'A' });
    await settle();
    // B takes over on the same database when A is gone (in the browser: the same OPFS file).
    const b = createDbHost({
      openEngine: async () => createEngine(shared.env, (await import('../store/migrations')).migrations),
      locks,
      channel: new BroadcastChannel(name),
      tabId: 'B',
    });
    await settle();
    const session = expectOk(await createCaller(b).call('session.create', {}));
    const caller = createCaller(b);
    const writes: Promise<unknown>[] = [];
    let answered = 0;
    const send = (i: number) =>
      writes.push(caller.call('message.append', { sessionId: session.id, role: 'user', content: `m${i}` }).then((r) => (answered++, r)));
    for (let i = 0; i < 20; i++) send(i);
    await settle(5);
    // A applies what reached it but its answers are lost, then its tab dies.
    leaderChannel.dropResponses = true;
    for (let i = 20; i < 40; i++) send(i);
    await settle(20);
    const appliedByA = t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n ?? 0;
    // Some writes were applied by A and never answered: exactly the case a re-send must not duplicate.
    expect(appliedByA).toBeGreaterThan(answered);
    a.close();
    const results = (await Promise.all(writes)) as { ok: boolean; data?: { message?: { content: string } } | null }[];
    expect(results.filter((r) => !r.ok)).toEqual([]);
    // A re-sent write that A had applied gets A's answer back (kept for another tab's calls), not an empty one.
    expect(results.map((r) => r.data?.message?.content).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());
    expect(b.info().role).toBe('leader');
    const contents = t.driver.all<{ content: string }>('SELECT content FROM messages ORDER BY id').map((r) => r.content);
    expect(contents).toHaveLength(40);
    expect(new Set(contents).size).toBe(40);
    b.close();
  });

  it('a write that fails while its leader is dying is sent again, and applied once', async () => {
    const t = await createTestEngine();
    const seen = new Set<string>();
    // A leader cut off mid-call: the first attempt of every write fails as if interrupted.
    const flaky: Engine = {
      ...t.engine,
      close: () => {},
      handle: async (req) => {
        if (req.opId && !seen.has(req.opId)) {
          seen.add(req.opId);
          return { ok: false, error: { code: 'INTERNAL', message: 'interrupted' } };
        }
        return t.engine.handle(req);
      },
    };
    const locks = fakeLocks();
    const name = `relay-${Math.random()}`;
    const a = createDbHost({ openEngine: async () => flaky, locks, channel: new BroadcastChannel(name), tabId: 'A' });
    await settle();
    const b = createDbHost({ openEngine: async () => t.engine, locks, channel: new BroadcastChannel(name), tabId: 'B' });
    await settle();
    const caller = createCaller(b);
    const s = expectOk(await caller.call('session.create', {}));
    const res = await caller.call('message.append', { sessionId: s.id, role: 'user', content: 'once' });
    expect(res.ok).toBe(true);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n).toBe(1);
    a.close();
    b.close();
  });

  it('a background sweep with nothing to sweep writes no row and announces nothing; a person\'s write is announced', async () => {
    const t = await createTestEngine();
    const { a, b } = await twoTabs(t.engine);
    const seen: string[] = [];
    for (const host of [a, b]) host.subscribe((e) => void (e.type === 'change' && seen.push(e.method)));
    const ops = () => t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM applied_ops')?.n;
    const before = ops();
    for (const caller of [createCaller(a), createCaller(b)]) {
      expectOk(await caller.call('workingMemory.sweep', {}));
      expectOk(await caller.call('run.sweep', {}));
    }
    await settle();
    expect(seen).toEqual([]);
    expect(ops()).toBe(before);
    expectOk(await createCaller(b).call('session.create', { title: 'a real save' }));
    await settle();
    expect(seen).toEqual(['session.create', 'session.create']);
    a.close();
    b.close();
  });

  it('a guest tab (isolated, in memory) never leads the tabs on OPFS, and never serves their writes', async () => {
    const guest = await createTestEngine();
    const persistent = await createTestEngine();
    const locks = fakeLocks();
    const g = createDbHost({ openEngine: async () => guest.engine, locks, isolated: true, tabId: 'G' });
    await settle();
    const p = createDbHost({ openEngine: async () => persistent.engine, locks, tabId: 'P' });
    await settle();
    expect(g.info().role).toBe('leader');
    expect(p.info().role).toBe('leader');
    expectOk(await createCaller(p).call('session.create', { title: 'kept on OPFS' }));
    expectOk(await createCaller(g).call('session.create', { title: 'forgotten with the guest' }));
    const titles = (t: typeof guest) => t.driver.all<{ title: string }>('SELECT title FROM sessions').map((r) => r.title);
    expect(titles(persistent)).toEqual(['kept on OPFS']);
    expect(titles(guest)).toEqual(['forgotten with the guest']);
    g.close();
    p.close();
  });

  it('a leader still waiting for the file says so (DB_UNAVAILABLE, reason busy), then serves once it opens', async () => {
    const t = await createTestEngine();
    let release: () => void = () => {};
    const host = createDbHost({
      openEngine: async ({ waiting }) => {
        waiting();
        await new Promise<void>((r) => (release = r));
        return t.engine;
      },
      locks: fakeLocks(),
      channel: new BroadcastChannel(`relay-${Math.random()}`),
    });
    const events: string[] = [];
    host.subscribe((e) => {
      if (e.type === 'waiting') events.push(`waiting:${e.error.code}:${String(e.error.details?.reason)}`);
      if (e.type === 'role') events.push(`role:${e.info.role}`);
    });
    await settle();
    expect(events).toContain('waiting:DB_UNAVAILABLE:busy');
    const status = createCaller(host).call('system.status', {});
    release();
    expect((await status).ok).toBe(true);
    expect(events.at(-1)).toBe('role:leader');
    host.close();
  });

  it('a follower with no leader anywhere answers DB_UNAVAILABLE instead of hanging', async () => {
    const locks = fakeLocks();
    const name = `relay-${Math.random()}`;
    // Someone else holds the lock but never answers.
    void locks.request('engram-db-leader', {}, () => new Promise(() => {}));
    const b = createDbHost({ openEngine: async () => { throw new Error('unused'); }, locks, channel: new BroadcastChannel(name), relayTimeoutMs: 50 });
    const res = await createCaller(b).call('system.status', {});
    expect(res).toMatchObject({ ok: false, error: { code: 'DB_UNAVAILABLE' } });
    b.close();
  });
});

/** A copy of the test database as it is now: what a closing tab keeps writing to after it lost the real file. */
async function orphanedCopy(t: TestEngine) {
  const sqlite3 = await loadSqlite3();
  const bytes = sqlite3.capi.sqlite3_js_db_export(t.db);
  const copy = new sqlite3.oo1.DB(':memory:', 'c');
  const pointer = sqlite3.wasm.allocFromTypedArray(bytes);
  const flags = sqlite3.capi.SQLITE_DESERIALIZE_FREEONCLOSE | sqlite3.capi.SQLITE_DESERIALIZE_RESIZEABLE;
  expect(sqlite3.capi.sqlite3_deserialize(copy.pointer as number, 'main', pointer, bytes.length, bytes.length, flags)).toBe(0);
  return createEngine({ ...t.engine.env, driver: createSqliteWasmDriver(copy) }, migrations);
}

describe('a closing tab that keeps answering after it lost the database (issue 13, defect 0)', () => {
  /**
   * What Chromium does to a closing tab (seen in private windows): its Web Lock and its OPFS files go to the next
   * tab while its DB worker still answers for a while — acknowledging writes that never reach the file. The next
   * leader is still opening the file meanwhile. Followers must get those writes applied, once, with the ids they
   * were told.
   */
  it('every acknowledged write is in the database exactly once after the hand-over, with the ids it was answered with', async () => {
    const t = await createTestEngine();
    const locks = fakeLocks();
    const name = `relay-${Math.random()}`;
    let target: Engine = t.engine;
    const aEngine: Engine = { ...t.engine, handle: (req) => target.handle(req), close: () => {} };
    const a = createDbHost({ openEngine: async () => aEngine, locks, channel: new BroadcastChannel(name), tabId: 'A' });
    await settle();
    let openB: () => void = () => {};
    const b = createDbHost({
      openEngine: async () => {
        await new Promise<void>((r) => (openB = r));
        return createEngine(t.engine.env, migrations);
      },
      locks,
      channel: new BroadcastChannel(name),
      tabId: 'B',
    });
    const c = createDbHost({ openEngine: async () => createEngine(t.engine.env, migrations), locks, channel: new BroadcastChannel(name), tabId: 'C' });
    await settle();
    const [cb, cc] = [createCaller(b), createCaller(c)];
    const before = expectOk(await cb.call('session.create', { title: 'before the hand-over' }));
    expectOk(await cb.call('message.append', { sessionId: before.id, role: 'user', content: 'b-0' }));

    // Tab A is closing: the browser hands its lock to B (which starts opening the file) and A's writes go nowhere.
    target = await orphanedCopy(t);
    locks.drop('engram-db-leader');
    await settle();
    expect(b.info().role).not.toBe('leader');
    const during = expectOk(await cc.call('session.create', { title: 'made while A was closing' }));
    const acked = await Promise.all([
      cc.call('message.append', { sessionId: during.id, role: 'user', content: 'c-1' }),
      cb.call('message.append', { sessionId: before.id, role: 'user', content: 'b-1' }),
      cb.call('message.append', { sessionId: before.id, role: 'user', content: 'b-2' }),
    ]);
    expect(acked.map((r) => r.ok)).toEqual([true, true, true]);
    // None of that reached the file.
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n).toBe(1);

    // B opens the file and leads: A hears it and stops; B and C get what A acknowledged applied.
    openB();
    await vi.waitFor(() => expect(b.info().role).toBe('leader'));
    await vi.waitFor(() => expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n).toBe(4));
    expect(a.info().role).toBe('follower');
    await settle(50);
    const rows = t.driver.all<{ session_id: string; content: string }>('SELECT session_id, content FROM messages ORDER BY id');
    expect(rows).toEqual([
      { session_id: before.id, content: 'b-0' },
      { session_id: before.id, content: 'b-1' },
      { session_id: before.id, content: 'b-2' },
      { session_id: during.id, content: 'c-1' },
    ]);
    // The conversation C was told about exists under the id C was given.
    expect(expectOk(await cc.call('session.get', { id: during.id })).title).toBe('made while A was closing');
    // Still exactly once after everyone has had a chance to re-send.
    await settle(100);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages')?.n).toBe(4);
    for (const h of [a, b, c]) h.close();
  });
});
