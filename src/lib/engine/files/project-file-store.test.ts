import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../domain/clock';
import { opfsProjectFileStore } from './opfs-project-file-store';
import { memoryProjectFileStore, type ProjectFileStore } from './project-file-store';

/** A tiny in-memory stand-in for an OPFS directory handle: what the OPFS store uses, nothing more. */
function fakeDir(name = ''): unknown {
  const entries = new Map<string, unknown>();
  const notFound = () => new DOMException('not found', 'NotFoundError');
  const file = (fileName: string) => {
    let data = '';
    return {
      kind: 'file',
      name: fileName,
      getFile: async () => new File([data], fileName, { lastModified: 1000 }),
      createWritable: async () => ({ write: async (s: string) => void (data = s), close: async () => {} }),
    };
  };
  return {
    kind: 'directory',
    name,
    async getDirectoryHandle(n: string, opts?: { create?: boolean }) {
      if (!entries.has(n)) {
        if (!opts?.create) throw notFound();
        entries.set(n, fakeDir(n));
      }
      return entries.get(n);
    },
    async getFileHandle(n: string, opts?: { create?: boolean }) {
      if (!entries.has(n)) {
        if (!opts?.create) throw notFound();
        entries.set(n, file(n));
      }
      return entries.get(n);
    },
    async removeEntry(n: string) {
      if (!entries.delete(n)) throw notFound();
    },
    async *values() {
      yield* entries.values();
    },
  };
}

const stores: [string, () => ProjectFileStore][] = [
  ['memory', () => memoryProjectFileStore(fixedClock(1000))],
  ['opfs (fake handles)', () => {
    const root = fakeDir();
    return opfsProjectFileStore(async () => root);
  }],
];

describe.each(stores)('ProjectFileStore: %s', (_name, make) => {
  it('writes, lists (sorted, per project), reads and deletes project-relative files', async () => {
    const store = make();
    await store.write('p1', '.engram/world/setting.md', '世界');
    await store.write('p1', './.engram\\characters\\alice.md', 'Alice');
    await store.write('p2', '.engram/characters/bob.md', 'Bob');
    expect((await store.list('p1')).map((e) => e.path)).toEqual(['.engram/characters/alice.md', '.engram/world/setting.md']);
    expect((await store.list('p1', '.engram/characters')).map((e) => [e.path, e.size])).toEqual([['.engram/characters/alice.md', 5]]);
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
