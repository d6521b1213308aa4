/**
 * Issue 13 defect 3: a command never fails just because another process writes. Readers do not wait
 * for the writer (WAL; start-up takes no write lock on an up-to-date database), and a writer that must
 * wait says which process holds the database — and, when it gives up, names it.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { openFileEngine } from './open-file-db';
import { jsonOf, runCliProcess, tempProject } from './testing';

describe('another process holds the write lock', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('recall answers at once; store waits, says who holds the database, and fails naming it', async () => {
    const dbPath = join(project.dir, 'busy.db');
    const holder = openFileEngine({ dbPath, command: 'import' });
    expectOk(await holder.engine.call('session.create', { id: 'conv-1' }));
    expectOk(await holder.engine.call('message.append', { sessionId: 'conv-1', role: 'user', content: 'the quartz ledger is in the drawer' }));
    // Another process (this one) now holds the write lock, as a long import does.
    holder.presence.writing(true);
    holder.driver.exec('BEGIN IMMEDIATE');
    try {
      const recall = await runCliProcess(['recall', '--db', dbPath, '--query', 'quartz ledger']);
      expect(recall.code, recall.stderr).toBe(0);
      expect((jsonOf(recall.stdout).results as unknown[]).length).toBeGreaterThan(0);
      // It never waited for the lock (a wait would have been announced).
      expect(recall.stderr).toBe('');

      const store = await runCliProcess(['store', '--db', dbPath, '--conversation', 'conv-1', '--role', 'user', '--content', 'blocked?']);
      expect(store.code).toBe(1);
      const lines = store.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, { message: string; code?: string }>);
      const waiting = lines.find((l) => l.waiting);
      expect(waiting?.waiting?.message).toMatch(new RegExp(`process ${process.pid} \\(\`import\`, writing since`));
      const error = lines.find((l) => l.error)?.error;
      expect(error).toMatchObject({ code: 'DB_UNAVAILABLE' });
      expect(error?.message).toContain(`process ${process.pid} (\`import\``);
    } finally {
      holder.driver.exec('ROLLBACK');
      holder.close();
    }
    // Once the lock is free the same store goes in.
    const again = await runCliProcess(['store', '--db', dbPath, '--conversation', 'conv-1', '--role', 'user', '--content', 'now it fits']);
    expect(again.code, again.stderr).toBe(0);
  }, 30_000);
});
