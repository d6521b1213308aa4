import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { loadMigrationsFromDisk } from '../engine/store/migrations-fs';
import { openFileEngine, resolveDbPath } from './open-file-db';
import { jsonOf, runCliInProcess, tempProject } from './testing';

describe('resolveDbPath (ARCHITECTURE §10)', () => {
  it.each([
    [{ cwd: '/work/p' }, '/work/p/.engram/conversation-memory.db'],
    [{ cwd: '/work/p', projectRoot: '../q' }, '/work/q/.engram/conversation-memory.db'],
    [{ cwd: '/work/p', projectRoot: '/abs' }, '/abs/.engram/conversation-memory.db'],
    [{ cwd: '/work/p', db: 'data/m.db', projectRoot: '/ignored' }, '/work/p/data/m.db'],
  ])('%j → %s', (opts, path) => {
    expect(resolveDbPath(opts)).toBe(path);
  });
});

describe('openFileEngine', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('creates the folder and the file, migrated to the latest schema, with 002 REQ-LTM-008 pragmas', async () => {
    const dbPath = join(project.dir, 'nested', '.engram', 'conversation-memory.db');
    const db = openFileEngine({ dbPath });
    try {
      expect(db.created).toBe(true);
      expect(existsSync(dbPath)).toBe(true);
      const pragma = (name: string) => db.driver.get<Record<string, unknown>>(`PRAGMA ${name}`);
      expect(pragma('journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(pragma('busy_timeout')).toEqual({ timeout: 5000 });
      // synchronous: 1 = NORMAL
      expect(pragma('synchronous')).toEqual({ synchronous: 1 });
      expect(pragma('foreign_keys')).toEqual({ foreign_keys: 1 });
      const status = expectOk(await db.engine.call('system.status', {}));
      expect(status).toMatchObject({ driver: 'better-sqlite3', schemaVersion: loadMigrationsFromDisk().length });
    } finally {
      db.close();
    }
    const again = openFileEngine({ dbPath });
    expect(again.created).toBe(false);
    again.close();
  });

  it('keeps what was stored across openings, and a conversation id can be taken only once', async () => {
    const dbPath = join(project.dir, 'keep.db');
    const first = openFileEngine({ dbPath });
    expectOk(await first.engine.call('session.create', { id: 'conv-20260117-abc123' }));
    expectOk(await first.engine.call('message.append', { sessionId: 'conv-20260117-abc123', role: 'user', content: 'OrderService' }));
    first.close();
    const second = openFileEngine({ dbPath });
    try {
      expect(expectOk(await second.engine.call('session.get', { id: 'conv-20260117-abc123' })).turnCount).toBe(1);
      const taken = await second.engine.call('session.create', { id: 'conv-20260117-abc123' });
      expect(taken).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    } finally {
      second.close();
    }
  });

  it('a path that is no database file is DB_UNAVAILABLE for the CLI (exit 1), not a crash', async () => {
    // A directory cannot be opened as the database.
    const r = await runCliInProcess(['init', '--db', '.'], { cwd: project.dir });
    expect(r.code).toBe(1);
    expect(jsonOf(r.stderr)).toMatchObject({ error: { code: 'DB_UNAVAILABLE' } });
  });
});
