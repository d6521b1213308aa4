/**
 * Issue 13 defect 4: project setting files belong to one database, not to the folder it sits in. Two
 * databases side by side that hold the same project (one imported from the other) keep their own files.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOk } from '../engine/testing';
import { DB_FILE_NAME, openFileEngine } from './open-file-db';
import { tempProject } from './testing';

const project = tempProject();
afterAll(() => project.remove());

async function exportOf(db: ReturnType<typeof openFileEngine>): Promise<Blob> {
  const started = expectOk(await db.engine.call('backup.exportBegin', { scope: { kind: 'all' } }));
  let text = '';
  for (;;) {
    const chunk = expectOk(await db.engine.call('backup.exportChunk', { exportId: started.exportId, maxChars: 1 << 20 }));
    text += chunk.text;
    if (chunk.done) return new Blob([text]);
  }
}

describe('project files per database', () => {
  it('replacing a project in scratch.db leaves the files of work.db beside it as they were', async () => {
    const work = openFileEngine({ dbPath: join(project.dir, 'work.db') });
    const scratch = openFileEngine({ dbPath: join(project.dir, 'scratch.db') });
    try {
      const p = expectOk(await work.engine.call('project.create', { name: 'Novel' }));
      expectOk(await work.engine.call('projectFile.write', { projectId: p.id, path: '.engram/characters/alice.md', content: 'Alice, as written in work.db' }));
      // scratch.db gets the same project (same id) from work.db's export…
      const preview = expectOk(await scratch.engine.call('backup.importPreview', { file: await exportOf(work), mode: 'replace' }));
      expectOk(await scratch.engine.call('backup.importApply', { token: preview.token, mode: 'replace' }));
      expectOk(await scratch.engine.call('backup.importFiles', { token: preview.token }));
      // …and is then changed and replaced there.
      expectOk(await scratch.engine.call('projectFile.write', { projectId: p.id, path: '.engram/characters/alice.md', content: 'a scratch rewrite' }));
      expectOk(await scratch.engine.call('projectFile.write', { projectId: p.id, path: '.engram/world/draft.md', content: 'only in scratch' }));
      const again = expectOk(await scratch.engine.call('backup.importPreview', { file: await exportOf(scratch), mode: 'replace' }));
      expectOk(await scratch.engine.call('backup.importApply', { token: again.token, mode: 'replace' }));
      expectOk(await scratch.engine.call('backup.importFiles', { token: again.token }));

      expect(expectOk(await work.engine.call('projectFile.read', { projectId: p.id, path: '.engram/characters/alice.md' })).content).toBe('Alice, as written in work.db');
      expect(expectOk(await work.engine.call('projectFile.list', { projectId: p.id })).map((f) => f.path)).toEqual(['.engram/characters/alice.md']);
      expect(expectOk(await scratch.engine.call('projectFile.read', { projectId: p.id, path: '.engram/characters/alice.md' })).content).toBe('a scratch rewrite');
      expect(existsSync(join(project.dir, 'work.db-engram', 'projects', p.id))).toBe(true);
      expect(existsSync(join(project.dir, 'scratch.db-engram', 'projects', p.id))).toBe(true);
      expect(existsSync(join(project.dir, 'projects'))).toBe(false);
    } finally {
      work.close();
      scratch.close();
    }
  });

  it('the default database takes over the files an earlier version kept in its folder', async () => {
    const folder = join(project.dir, 'legacy', '.engram');
    const first = openFileEngine({ dbPath: join(folder, DB_FILE_NAME) });
    const p = expectOk(await first.engine.call('project.create', { name: 'Old' }));
    first.close();
    mkdirSync(join(folder, 'projects', p.id, '.engram'), { recursive: true });
    writeFileSync(join(folder, 'projects', p.id, '.engram', 'style.md'), 'terse');
    const db = openFileEngine({ dbPath: join(folder, DB_FILE_NAME) });
    try {
      expect(expectOk(await db.engine.call('projectFile.read', { projectId: p.id, path: '.engram/style.md' })).content).toBe('terse');
      expect(existsSync(join(folder, 'projects'))).toBe(false);
    } finally {
      db.close();
    }
  });
});
