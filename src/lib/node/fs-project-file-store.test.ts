import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsProjectFileStore } from './fs-project-file-store';
import { tempProject } from './testing';

/** The same behaviour the app's stores (memory, OPFS) are held to in engine/files/project-file-store.test.ts. */
describe('fsProjectFileStore', () => {
  const project = tempProject();
  afterAll(() => project.remove());
  let n = 0;
  const make = () => fsProjectFileStore(join(project.dir, `root-${++n}`));

  it('writes, lists (sorted, per project), reads and deletes project-relative files, in the OPFS layout', async () => {
    const store = make();
    await store.write('p1', '.engram/world/setting.md', '世界');
    await store.write('p1', './.engram\\characters\\alice.md', 'Alice');
    await store.write('p2', '.engram/characters/bob.md', 'Bob');
    expect(existsSync(join(project.dir, `root-${n}`, 'projects', 'p1', '.engram', 'characters', 'alice.md'))).toBe(true);
    expect((await store.list('p1')).map((e) => e.path)).toEqual(['.engram/characters/alice.md', '.engram/world/setting.md']);
    expect((await store.list('p1', '.engram/characters')).map((e) => [e.path, e.size])).toEqual([['.engram/characters/alice.md', 5]]);
    expect((await store.list('p1', '.engram/world'))[0]?.size).toBe(6);
    expect(await store.read('p1', '.engram/characters/alice.md')).toBe('Alice');
    expect(await store.read('p1', '.engram/characters/bob.md')).toBeNull();
    expect(await store.list('p3')).toEqual([]);
    expect(await store.delete('p1', '.engram/world/setting.md')).toBe(true);
    expect(await store.delete('p1', '.engram/world/setting.md')).toBe(false);
    await store.deleteProject('p2');
    expect(await store.list('p2')).toEqual([]);
    expect(await store.read('p1', '.engram/characters/alice.md')).toBe('Alice');
  });

  it.each(['/etc/passwd', '../x.md', '.engram/../../x.md', 'C:\\x.md', 'notes.md', '.engram'])('refuses the path %j', async (path) => {
    await expect(make().write('p1', path, 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fields: ['path'] } });
  });

  it('refuses a project id that is not a plain folder name', async () => {
    await expect(make().write('../p1', '.engram/a.md', 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { fields: ['projectId'] } });
  });
});
