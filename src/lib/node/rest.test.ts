/**
 * Seed 001 "Memory API Endpoints", served by `engram serve --port 0` in this process on a file
 * database the test filled first (as another process would have).
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, fixedClock } from '../domain/clock';
import { expectOk } from '../engine/testing';
import { runCli } from './cli';
import { openFileEngine } from './open-file-db';
import { startRestServer, statusFor } from './rest';
import { tempProject } from './testing';

interface Res {
  status: number;
  body: Record<string, unknown>;
}

const MEMORIES = 25;

describe('REST endpoints (seed 001) via engram serve', () => {
  const project = tempProject();
  const dbPath = join(project.dir, '.engram', 'conversation-memory.db');
  let base = '';
  let stop: () => void = () => undefined;
  let exited: Promise<number> = Promise.resolve(-1);

  function call(method: string, path: string, headers: Record<string, string> = {}): Promise<Res> {
    return new Promise((done, fail) => {
      const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', fail);
      req.end();
    });
  }
  const errorOf = (r: Res) => r.body.error as { code: string; message: string; fields?: string[] };

  beforeAll(async () => {
    // Filled "by another process": memories, a live conversation, and one idle for two hours.
    const seed = openFileEngine({ dbPath });
    for (let i = 1; i <= MEMORIES; i++)
      expectOk(await seed.engine.call('memory.create', { content: `Fact number ${i} about the OrderService rollout`, key: `fact.rollout_${i}` }));
    expectOk(await seed.engine.call('session.create', { id: 'conv-live' }));
    expectOk(await seed.engine.call('message.append', { sessionId: 'conv-live', role: 'user', content: '我们来讨论 CacheManager 的实现' }));
    seed.close();
    const past = openFileEngine({ dbPath, clock: fixedClock(Date.now() - DAY_MS / 12) });
    expectOk(await past.engine.call('session.create', { id: 'conv-idle' }));
    expectOk(await past.engine.call('message.append', { sessionId: 'conv-idle', role: 'user', content: 'an old question' }));
    past.close();

    let stdout = '';
    const listening = new Promise<void>((ready) => {
      exited = runCli(['serve', '--port', '0', '--db', dbPath], {
        stdout: (t) => {
          stdout += t;
          ready();
        },
        stderr: (t) => void (stdout += t),
        stdin: () => Readable.from([]),
        cwd: project.dir,
        stopSignal: () => new Promise<void>((s) => (stop = s)),
      });
    });
    await listening;
    base = (JSON.parse(stdout) as { listening: string }).listening;
  });

  afterAll(async () => {
    stop();
    await exited;
    project.remove();
  });

  it('listens on 127.0.0.1 only, on the ephemeral port it was given', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(base).port)).toBeGreaterThan(0);
    const db = openFileEngine({ dbPath });
    const server = await startRestServer({ engine: db.engine, port: 0 });
    try {
      expect(server.server.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    } finally {
      await server.close();
      db.close();
    }
  });

  it('GET /memory/long-term pages with limit/offset and says the total', async () => {
    const pages = await Promise.all([0, 10, 20].map((offset) => call('GET', `/memory/long-term?limit=10&offset=${offset}`)));
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(pages.map((p) => [p.body.total, p.body.offset, p.body.limit, p.body.next_offset])).toEqual([
      [MEMORIES, 0, 10, 10],
      [MEMORIES, 10, 10, 20],
      [MEMORIES, 20, 10, null],
    ]);
    const items = pages.flatMap((p) => p.body.items as Record<string, unknown>[]);
    expect(new Set(items.map((m) => m.id)).size).toBe(MEMORIES);
    // 001's long-term memory fields, in snake_case, times as ISO strings.
    expect(items[0]).toMatchObject({ category: 'fact', source: 'user_stated', confidence: 1, access_count: 0, session_id: null, last_accessed: null });
    expect(Object.keys(items[0] as object)).toEqual(
      expect.arrayContaining(['id', 'session_id', 'category', 'key', 'value', 'confidence', 'source', 'created_at', 'last_accessed', 'access_count']),
    );
    expect(String(items[0]?.created_at)).toMatch(/Z$/);
  });

  it.each([
    ['limit=abc', 'limit'],
    ['limit=500', 'limit'],
    ['offset=-1', 'offset'],
    ['category=mood', 'category'],
    ['sort=x', 'sort'],
  ])('GET /memory/long-term?%s → 400 naming `%s`', async (query, field) => {
    const r = await call('GET', `/memory/long-term?${query}`);
    expect(r.status).toBe(400);
    expect(errorOf(r)).toMatchObject({ code: 'INVALID_ARGUMENT', fields: [field] });
  });

  it('GET and DELETE /memory/long-term/{id}: the entry with its history, then 404 once it is gone', async () => {
    const first = ((await call('GET', '/memory/long-term?limit=1')).body.items as { id: string }[])[0] as { id: string };
    const got = await call('GET', `/memory/long-term/${encodeURIComponent(first.id)}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: first.id, content: expect.stringContaining('OrderService'), history: [expect.objectContaining({ action: 'create' })] });
    expect(await call('DELETE', `/memory/long-term/${first.id}`)).toEqual({ status: 200, body: { deleted: true, id: first.id, profile_changed: false } });
    const again = await call('GET', `/memory/long-term/${first.id}`);
    expect([again.status, errorOf(again).code]).toEqual([404, 'NOT_FOUND']);
    expect((await call('DELETE', `/memory/long-term/${first.id}`)).status).toBe(404);
    expect((await call('GET', '/memory/long-term')).body.total).toBe(MEMORIES - 1);
  });

  it('DELETE /memory/long-term needs ?confirm=true (428 otherwise, nothing deleted) and keeps working memory', async () => {
    for (const query of ['', '?confirm=false']) {
      const refused = await call('DELETE', `/memory/long-term${query}`);
      expect(refused.status).toBe(428);
      expect(errorOf(refused).code).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    }
    expect((await call('DELETE', '/memory/long-term?confirm=yes')).status).toBe(400);
    expect((await call('GET', '/memory/long-term')).body.total).toBe(MEMORIES - 1);
    const cleared = await call('DELETE', '/memory/long-term?confirm=true');
    expect(cleared).toMatchObject({ status: 200, body: { memories_deleted: MEMORIES - 1 } });
    expect((await call('GET', '/memory/long-term')).body).toMatchObject({ items: [], total: 0, next_offset: null });
    expect((await call('GET', '/memory/working/conv-live')).status).toBe(200);
  });

  it('GET /memory/working/{session_id}: 001 fields for a live conversation, 404 for an unknown or idle one', async () => {
    const wm = await call('GET', '/memory/working/conv-live');
    expect(wm.status).toBe(200);
    expect(wm.body).toMatchObject({ session_id: 'conv-live', turn_count: 1, context_variables: expect.any(Object) });
    expect(Object.keys(wm.body).sort()).toEqual(['context_variables', 'created_at', 'current_topic', 'last_emotion', 'session_id', 'turn_count', 'updated_at']);
    for (const id of ['nope', 'conv-idle']) {
      const missing = await call('GET', `/memory/working/${id}`);
      expect([missing.status, errorOf(missing).code]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it.each([
    ['GET', '/memory', {}, 404],
    ['POST', '/memory/long-term', {}, 405],
    ['PUT', '/memory/working/conv-live', {}, 405],
    ['GET', '/memory/long-term', { origin: 'https://example.com' }, 403],
    ['GET', '/memory/long-term', { host: 'evil.example:80' }, 403],
  ] as const)('%s %s %j → %i', async (method, path, headers, status) => {
    const r = await call(method, path, { ...headers });
    expect(r.status).toBe(status);
    expect(errorOf(r).message).toEqual(expect.any(String));
  });

  it('a Host in capitals is the same host (issue 13): LOCALHOST and 127.0.0.1 are answered, others not', async () => {
    const port = new URL(base).port;
    for (const host of [`LOCALHOST:${port}`, `LocalHost:${port}`, `127.0.0.1:${port}`]) expect((await call('GET', '/memory/long-term', { host })).status, host).toBe(200);
    expect((await call('GET', '/memory/long-term', { host: `LOCALHOST.evil.example:${port}` })).status).toBe(403);
  });

  it.each([
    ['INVALID_ARGUMENT', 400],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
    ['MEMORY_CLEAR_CONFIRM_REQUIRED', 428],
    ['DB_UNAVAILABLE', 500],
    ['INTERNAL', 500],
  ] as const)('maps %s to HTTP %i', (code, status) => {
    expect(statusFor(code)).toBe(status);
  });
});
