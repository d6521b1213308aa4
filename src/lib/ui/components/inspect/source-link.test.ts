import { describe, expect, it } from 'vitest';
import { sourceView } from './source-link';

describe('where a layer source leads', () => {
  it.each([
    { source: 'memory:m 1', sessionId: null, want: { href: '/memory?id=m%201', kind: 'memory', label: 'memory:m 1' } },
    { source: 'turn:42', sessionId: 's-1', want: { href: '/chat?session=s-1&message=42', kind: 'turn', label: 'turn:42' } },
    { source: 'turn:42', sessionId: null, want: { href: null, kind: 'turn', label: 'turn:42' } },
    { source: 'session:s-9', sessionId: null, want: { href: '/chat?session=s-9', kind: 'session', label: 'session:s-9' } },
    { source: '.engram/characters/alice.md', sessionId: null, want: { href: null, kind: 'file', label: '.engram/characters/alice.md' } },
    { source: 'file:.engram/style/guide.md', sessionId: null, want: { href: null, kind: 'file', label: '.engram/style/guide.md' } },
    { source: 'preference:r-1', sessionId: null, want: { href: null, kind: 'rule', label: 'preference:r-1' } },
    { source: 'profile:v3', sessionId: null, want: { href: null, kind: 'other', label: 'profile:v3' } },
  ])('$source', ({ source, sessionId, want }) => {
    expect(sourceView(source, { sessionId })).toEqual(want);
  });
});
