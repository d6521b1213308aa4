import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { createBetterSqlite3Driver } from './better-sqlite3-driver';
import { reclaimLog } from './storage-use';

describe('storage.usage (issue 13: what uses space)', () => {
  it('sums every table, index and full-text index into the area a person knows; deleting frees pages', async () => {
    const { engine } = await createTestEngine();
    const session = expectOk(await engine.call('session.create', { title: 'big' }));
    for (let i = 0; i < 40; i++) expectOk(await engine.call('message.append', { sessionId: session.id, role: 'user', content: `turn ${i} ${'lorem ipsum '.repeat(400)}` }));
    expectOk(await engine.call('memory.create', { content: 'I prefer tea' }));
    const usage = expectOk(await engine.call('storage.usage', {}));
    const of = (area: string) => usage.areas.find((a) => a.area === area)?.bytes ?? 0;
    expect(of('conversations')).toBeGreaterThan(of('memories'));
    expect(of('memories')).toBeGreaterThan(0);
    expect(usage.areas.reduce((n, a) => n + a.bytes, 0) + usage.freeBytes).toBe(usage.totalBytes);
    expect(usage.areas.map((a) => a.bytes)).toEqual([...usage.areas.map((a) => a.bytes)].sort((a, b) => b - a));

    expectOk(await engine.call('session.delete', { id: session.id }));
    const after = expectOk(await engine.call('storage.usage', {}));
    expect(after.freeBytes).toBeGreaterThan(usage.freeBytes);
    expect(after.areas.find((a) => a.area === 'conversations')!.bytes).toBeLessThan(of('conversations'));
  });
});

describe('storage.reclaim (issue 13: free space now)', () => {
  it('writes the WAL back and truncates it, returning its space to the disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-reclaim-'));
    const db = new Database(join(dir, 'db.sqlite3'));
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('wal_autocheckpoint = 0');
      db.exec('CREATE TABLE t (v TEXT)');
      for (let i = 0; i < 200; i++) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(2000));
      const wal = () => statSync(join(dir, 'db.sqlite3-wal')).size;
      const before = wal();
      expect(before).toBeGreaterThan(100_000);
      const report = reclaimLog(createBetterSqlite3Driver(db));
      expect(report.complete).toBe(true);
      expect(report.walFrames).toBeGreaterThan(0);
      expect(report.walBytes).toBeGreaterThanOrEqual(before - 32);
      expect(wal()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 200 });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
