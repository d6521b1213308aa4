import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine';
import { memoryProjectFileStore, type ProjectFileStore } from '../files/project-file-store';
import { migrations } from '../store/migrations';
import { expectOk } from '../testing';
import { readPendingFiles } from './file-journal';
import { fillEveryTable } from './test-fill';
import { createBackupTestEngine, dumpDatabase, exportText, wipe } from './testing';

/** A file store whose writes fail while `failing` is set (a full disk, a lost handle). */
function flakyStore(): ProjectFileStore & { failing: boolean } {
  const inner = memoryProjectFileStore();
  const store = {
    ...inner,
    failing: true,
    async write(projectId: string, path: string, content: string) {
      if (store.failing) throw new Error('NoModificationAllowedError');
      return inner.write(projectId, path, content);
    },
  };
  return store;
}

async function exported() {
  const a = await createBackupTestEngine({ idPrefix: 'a' });
  const filled = await fillEveryTable(a);
  return { a, filled, text: await exportText(a.engine) };
}

async function target(files?: ProjectFileStore) {
  const t = await createBackupTestEngine({ idPrefix: 'b' });
  if (!files) return t;
  const env = { ...t.engine.env, files };
  return { ...t, files, engine: createEngine(env, migrations) };
}

describe('an import\'s project files follow its rows, all or nothing', () => {
  it('a file write that fails leaves the plan recorded with the rows; the retry writes every file', async () => {
    const { a, filled, text } = await exported();
    const store = flakyStore();
    const t = await target(store);
    const preview = expectOk(await t.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'replace' }));
    expect(preview.files).toMatchObject({ add: 2 });
    // A preview writes nothing.
    expect(await store.list(filled.projectId)).toEqual([]);
    const applied = expectOk(await t.engine.call('backup.importApply', { token: preview.token, mode: 'replace' }));
    expect(applied.filesPending).toBe(2);
    // The rows and the plan for the files committed together.
    expect(readPendingFiles(t.driver)?.writes.map((f) => f.path).sort()).toEqual(['.engram/characters/林夜.md', '.engram/style/guide.md']);
    const failed = await t.engine.call('backup.importFiles', { token: preview.token });
    expect(failed.ok).toBe(false);
    expect(readPendingFiles(t.driver)).not.toBeNull();
    store.failing = false;
    expect(expectOk(await t.engine.call('backup.importFiles', { token: preview.token }))).toMatchObject({ add: 2 });
    expect(readPendingFiles(t.driver)).toBeNull();
    expect(await dumpDatabase(t)).toEqual(await dumpDatabase(a));
  });

  it('a worker that stopped between the rows and the files writes the files when it starts again', async () => {
    const { a, text } = await exported();
    const store = memoryProjectFileStore();
    const t = await target(store);
    const preview = expectOk(await t.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
    expectOk(await t.engine.call('backup.importApply', { token: preview.token, mode: 'merge' }));
    // The window closed here. The next start, on the same database and files:
    createEngine({ ...t.engine.env, files: store }, migrations);
    await expect.poll(() => readPendingFiles(t.driver)).toBeNull();
    expect(await dumpDatabase({ driver: t.driver, files: store })).toEqual(await dumpDatabase(a));
  });

  it('nothing is written when the apply is refused: no rows, no files, no plan', async () => {
    const { text } = await exported();
    const t = await target();
    const before = await dumpDatabase(t);
    const preview = expectOk(await t.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
    // Replace was never previewed: its files were never planned.
    const unplanned = await t.engine.call('backup.importApply', { token: preview.token, mode: 'replace' });
    expect(unplanned).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { fields: ['mode'] } } });
    expect(await dumpDatabase(t)).toEqual(before);
    expect(readPendingFiles(t.driver)).toBeNull();
  });

  it('a replace whose projects changed since its preview is refused whole (CONFLICT)', async () => {
    const { text } = await exported();
    const t = await target();
    await fillEveryTable(t, ' (B)');
    const preview = expectOk(await t.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'replace' }));
    expectOk(await t.engine.call('project.create', { name: 'made after the preview' }));
    const before = await dumpDatabase(t);
    const res = await t.engine.call('backup.importApply', { token: preview.token, mode: 'replace' });
    expect(res).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await dumpDatabase(t)).toEqual(before);
    expect(readPendingFiles(t.driver)).toBeNull();
  });

  it('applying the same file again adds nothing and owes no files', async () => {
    const { text } = await exported();
    const t = await target();
    await wipe(t);
    for (let i = 0; i < 2; i++) {
      const preview = expectOk(await t.engine.call('backup.importPreview', { file: new Blob([text]), mode: 'merge' }));
      expectOk(await t.engine.call('backup.importApply', { token: preview.token, mode: 'merge' }));
      const files = expectOk(await t.engine.call('backup.importFiles', { token: preview.token }));
      expect(files.add).toBe(i === 0 ? 2 : 0);
    }
  });
});
