import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { looksAbsolute, normaliseProjectPath } from './project-path';

describe('004 来源引用必须去敏并且可移植', () => {
  it.each([
    ['.engram/characters/alice.md', '.engram/characters/alice.md'],
    ['./.engram/world/map.md', '.engram/world/map.md'],
    ['.engram\\characters\\林黛玉.md', '.engram/characters/林黛玉.md'],
    ['.engram//style///guide.md', '.engram/style/guide.md'],
    ['.engram/characters/../world/map.md', '.engram/world/map.md'],
    ['chapters/01.md/', 'chapters/01.md'],
    ['  notes/a b.md ', 'notes/a b.md'],
  ])('%s → %s', (raw, want) => {
    expect(normaliseProjectPath(raw)).toBe(want);
  });

  it.each([
    ['absolute POSIX path', '/home/zhang/novel/.engram/characters/alice.md'],
    ['home shorthand', '~/novel/.engram/x.md'],
    ['Windows drive path', 'C:\\Users\\zhang\\novel\\.engram\\x.md'],
    ['drive letter with slash', 'd:/novel/x.md'],
    ['drive-relative path', 'C:novel\\x.md'],
    ['UNC path', '\\\\server\\share\\zhang\\x.md'],
    ['file URL', 'file:///home/zhang/novel/x.md'],
    ['other URL', 'https://example.com/zhang/x.md'],
    ['escaping with ..', '../zhang/secret.md'],
    ['escaping after descending', '.engram/../../zhang/secret.md'],
    ['the project root itself', './zhang/..'],
    ['empty', '   '],
    ['control character', '.engram/zhang\u0000.md'],
  ])('rejects %s with INVALID_ARGUMENT and does not echo it', (_name, raw) => {
    let error: unknown;
    try {
      normaliseProjectPath(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('INVALID_ARGUMENT');
    expect((error as EngineError).message).toContain('`path`');
    expect((error as EngineError).message).not.toContain('zhang');
  });

  it('names the caller’s field', () => {
    expect(() => normaliseProjectPath('/abs', 'layers.L3.items[0].id')).toThrowError(/`layers\.L3\.items\[0\]\.id`/);
  });

  it.each([
    ['/etc/passwd', true],
    ['C:\\x', true],
    ['file:///x', true],
    ['~/x', true],
    ['memory:abc', false],
    ['.engram/x.md', false],
    ['messages#1-40', false],
  ])('looksAbsolute(%s) = %s', (source, want) => {
    expect(looksAbsolute(source)).toBe(want);
  });
});
