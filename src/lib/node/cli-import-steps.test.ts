/**
 * Issue 13 defect 3: a long import commits in bounded steps and lets other writers through. The
 * stepped import writes exactly what the one-transaction import writes; between its steps another
 * connection can take the write lock at once; and a real `import` process steps aside for a `store`
 * that waits, so both succeed.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { openFileEngine } from './open-file-db';
import { jsonOf, runCliProcess, spawnCli, tempProject } from './testing';

const project = tempProject();
afterAll(() => project.remove());

/** An export with `n` messages in one conversation (rows written straight into a source database). */
async function exportWith(n: number): Promise<string> {
  const source = join(project.dir, `source-${n}.db`);
  const db = openFileEngine({ dbPath: source });
  expectOk(await db.engine.call('session.create', { id: 'conv-big' }));
  db.driver.transaction(() => {
    for (let i = 1; i <= n; i++)
      db.driver.run("INSERT INTO messages (session_id, turn_no, role, content, created_at) VALUES ('conv-big', ?, 'user', ?, ?)", [i, `imported turn ${i} about ledgers`, 1_700_000_000_000 + i]);
  });
  db.close();
  const file = join(project.dir, `export-${n}.json`);
  const out = await runCliProcess(['export', '--db', source, '--out', file]);
  expect(out.code, out.stderr).toBe(0);
  return file;
}

const dump = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      messages: db.prepare('SELECT session_id, turn_no, role, content, created_at FROM messages ORDER BY session_id, turn_no').all(),
      fts: db.prepare("SELECT COUNT(*) AS n FROM messages_fts WHERE messages_fts MATCH 'ledgers'").get(),
    };
  } finally {
    db.close();
  }
};

describe('backup.importStep', () => {
  it('writes exactly what importApply writes, each step its own transaction with the lock free between steps', async () => {
    const file = await exportWith(1200);
    const blob = new Blob([readFileSync(file)]);
    const oneShot = openFileEngine({ dbPath: join(project.dir, 'one-shot.db') });
    const stepped = openFileEngine({ dbPath: join(project.dir, 'stepped.db') });
    const other = new Database(join(project.dir, 'stepped.db'));
    other.pragma('busy_timeout = 0');
    try {
      const p1 = expectOk(await oneShot.engine.call('backup.importPreview', { file: blob, mode: 'merge' }));
      const applied = expectOk(await oneShot.engine.call('backup.importApply', { token: p1.token, mode: 'merge' }));
      const p2 = expectOk(await stepped.engine.call('backup.importPreview', { file: blob, mode: 'merge', dryRun: false }));
      let steps = 0;
      for (;;) {
        const step = expectOk(await stepped.engine.call('backup.importStep', { token: p2.token, mode: 'merge', maxRows: 200 }));
        steps++;
        if (step.done) {
          expect(step.tables).toEqual(applied.tables);
          break;
        }
        expect(step.rowsDone).toBe(steps * 200);
        // Between two steps another process takes the write lock without waiting at all.
        other.exec('BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS elsewhere (x); INSERT INTO elsewhere VALUES (1); COMMIT');
      }
      expect(steps).toBeGreaterThanOrEqual(5);
      expect(dump(join(project.dir, 'stepped.db'))).toEqual(dump(join(project.dir, 'one-shot.db')));
    } finally {
      other.close();
      oneShot.close();
      stepped.close();
    }
  }, 60_000);

  it('a CLI import running in another process lets a store through while it is still writing', async () => {
    const file = await exportWith(36_000);
    const target = join(project.dir, 'target.db');
    openFileEngine({ dbPath: target }).close();
    // The storing process is open before the import starts, and the import is 36 steps of 1,000 rows. Each of the
    // store's calls announces its wait after 50 ms and goes in when the importer's step ends (both calls ~0.13 s,
    // import ~1.4 s on a quiet machine). When a wait was announced only after a whole second, the store's calls took
    // ~1.07 s against an import of ~1.25 s, and a faster machine finished the import first.
    const db = openFileEngine({ dbPath: target, command: 'store' });
    const importer = spawnCli(['import', file, '--db', target]);
    let stdout = '';
    importer.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const exited = new Promise<number>((done) => importer.on('close', (code) => done(code ?? -1)));
    const notesDir = `${target}-engram/processes`;
    const importerNote = () => {
      try {
        return JSON.parse(readFileSync(join(notesDir, `${importer.pid}.json`), 'utf8')) as { writing?: number };
      } catch {
        return null;
      }
    };
    // Wait until the importer is writing rows.
    for (let i = 0; i < 600 && !importerNote()?.writing; i++) await new Promise((r) => setTimeout(r, 50));
    expect(importerNote()?.writing).toBeTruthy();
    try {
      expectOk(await db.engine.call('session.create', { id: 'conv-during-import' }));
      expectOk(await db.engine.call('message.append', { sessionId: 'conv-during-import', role: 'user', content: 'written while importing' }));
      // It went in while the import was still under way.
      expect(importerNote()?.writing).toBeTruthy();
    } finally {
      db.close();
    }
    expect(await exited).toBe(0);
    expect(jsonOf(stdout)).toMatchObject({ mode: 'merge', tables: { messages: { added: 36_000 } } });
    const after = openFileEngine({ dbPath: target });
    try {
      expect(expectOk(await after.engine.call('message.list', { sessionId: 'conv-big', limit: 1 }))).toHaveLength(1);
      expect(expectOk(await after.engine.call('session.get', { id: 'conv-during-import' })).turnCount).toBe(1);
    } finally {
      after.close();
    }
  }, 120_000);
});
