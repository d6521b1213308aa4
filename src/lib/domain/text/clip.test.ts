import { describe, expect, it } from 'vitest';
import { clipChars, clipFlat } from './clip';

describe('clipChars', () => {
  it('keeps a text that fits, whole', () => {
    expect(clipChars('林夜怕水', 4)).toBe('林夜怕水');
    expect(clipChars('', 3)).toBe('');
  });
  it('cuts a longer text to max characters, the last one an ellipsis', () => {
    expect(clipChars('abcdef', 4)).toBe('abc…');
    expect(Array.from(clipChars('主角林夜怕水，也怕黑', 5))).toHaveLength(5);
  });
  it('counts code points: an emoji or a CJK character is never split', () => {
    expect(clipChars('🦊🦊🦊🦊', 4)).toBe('🦊🦊🦊🦊'); // 8 UTF-16 units, 4 characters
    expect(clipChars('🦊🦊🦊🦊🦊', 3)).toBe('🦊🦊…');
  });
});

describe('clipFlat', () => {
  it('collapses whitespace and trims before clipping', () => {
    expect(clipFlat('  a \n\n b\tc  ', 10)).toBe('a b c');
    expect(clipFlat('one   two three', 6)).toBe('one t…');
  });
});
