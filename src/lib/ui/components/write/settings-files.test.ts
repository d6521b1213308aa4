import { describe, expect, it } from 'vitest';
import { fileLabel, folderOf, groupFiles, settingsFilePath } from './settings-files';

describe('setting file names', () => {
  it.each([
    { folder: 'characters', name: 'Alice', want: { ok: true, path: '.engram/characters/Alice.md' } },
    { folder: 'characters', name: '  林晚  ', want: { ok: true, path: '.engram/characters/林晚.md' } },
    { folder: 'world', name: 'magic system.md', want: { ok: true, path: '.engram/world/magic system.md' } },
    { folder: 'style', name: '10-guide', want: { ok: true, path: '.engram/style/10-guide.md' } },
    { folder: 'characters', name: '   ', want: { ok: false, problem: 'empty' } },
    { folder: 'characters', name: 'x'.repeat(81), want: { ok: false, problem: 'too-long' } },
    { folder: 'characters', name: '../../etc/passwd', want: { ok: false, problem: 'invalid' } },
    { folder: 'characters', name: 'a/b', want: { ok: false, problem: 'invalid' } },
    { folder: 'characters', name: 'C:\\x', want: { ok: false, problem: 'invalid' } },
    { folder: 'characters', name: '.hidden', want: { ok: false, problem: 'invalid' } },
    { folder: 'characters', name: 'what?', want: { ok: false, problem: 'invalid' } },
  ] as const)('$folder/$name', ({ folder, name, want }) => {
    expect(settingsFilePath(folder, name)).toEqual(want);
  });

  it('groups a listing by folder, other paths apart', () => {
    const at = (path: string) => ({ path, size: 1, updatedAt: 0 });
    const groups = groupFiles([at('.engram/characters/a.md'), at('.engram/world/w.md'), at('.engram/notes/x.md'), at('.engram/style/s.md')]);
    expect(groups.characters.map((e) => e.path)).toEqual(['.engram/characters/a.md']);
    expect(groups.other.map((e) => e.path)).toEqual(['.engram/notes/x.md']);
    expect(folderOf('.engram/world/deep/w.md')).toBeNull();
    expect(fileLabel('.engram/characters/林晚.md')).toBe('林晚');
  });
});
