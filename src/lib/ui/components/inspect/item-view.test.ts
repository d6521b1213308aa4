import { describe, expect, it } from 'vitest';
import type { KeptItem } from '../../../domain/context';
import { givenCounts, itemView, keptItemsById, memoryIdsWithoutText } from './item-view';

const run = { sessionId: 's-1' };

describe('issue 15: each thing the model was given, as a person reads it', () => {
  it.each<{ item: KeptItem; want: Record<string, unknown> }>([
    { item: { id: 'memory:m 1', tokens: 3, kind: 'memory', text: 'My sister is called Lena.' }, want: { kind: 'memory', text: 'My sister is called Lena.', href: '/memory?tab=memories&id=m+1', where: null } },
    {
      item: { id: 'turn:42', tokens: 3, kind: 'turn', text: 'We pack on Friday.', meta: { role: 'user', createdAt: 5 } },
      want: { kind: 'turn', role: 'user', createdAt: 5, href: '/chat?session=s-1&message=42' },
    },
    {
      item: { id: 'recall:turn:7', tokens: 3, kind: 'summary', text: 'Lena lives in Porto.', meta: { title: 'Family', conversationId: 'c-9', role: 'assistant', createdAt: 9 } },
      want: { kind: 'recalled-turn', where: 'Family', role: 'assistant', href: '/chat?session=c-9&message=7' },
    },
    { item: { id: 'recall:summary:3', tokens: 3, kind: 'summary', text: 'Talked about moving.', meta: { title: '—', conversationId: 'c-2' } }, want: { kind: 'summary', where: null, href: '/chat?session=c-2' } },
    { item: { id: 'session:c-5', tokens: 3, kind: 'session-summary', text: 'Trip planning', meta: { title: 'Trip' } }, want: { kind: 'conversation', where: 'Trip', href: '/chat?session=c-5' } },
    { item: { id: 'preference:r-1', tokens: 3, kind: 'preference', text: 'Short sentences' }, want: { kind: 'rule', href: '/memory?tab=preferences' } },
    { item: { id: 'file:.engram/characters/alice.md', tokens: 3, kind: 'character', text: 'Alice' }, want: { kind: 'file', where: '.engram/characters/alice.md', href: null } },
    { item: { id: 'profile:1', tokens: 3, kind: 'profile', text: 'Writer' }, want: { kind: 'profile', href: '/memory?tab=profile' } },
    { item: { id: 'episode:e1', tokens: 3, kind: 'episode', text: 'Chose the shorter one' }, want: { kind: 'episode', href: null } },
    { item: { id: 'message', tokens: 3, kind: 'message', text: 'hi' }, want: { kind: 'message', href: null } },
  ])('$item.id', ({ item, want }) => {
    expect(itemView(item, run)).toMatchObject({ id: item.id, text: item.text, ...want });
  });

  it('a run stored without words falls back to the memory store, and says so when nothing is found', () => {
    const layers = [{ items: [{ id: 'memory:a', tokens: 2 }, { id: 'memory:b', tokens: 2, text: 'kept' }, { id: 'turn:1', tokens: 1 }] }];
    expect(memoryIdsWithoutText(layers)).toEqual(['a']);
    const texts = new Map([['memory:a', 'I moved to Porto.']]);
    expect(itemView(keptItemsById(layers).get('memory:a')!, run, texts).text).toBe('I moved to Porto.');
    expect(itemView({ id: 'turn:1' }, run, texts).text).toBeNull();
  });

  it('the reply card counts what it was given by kind, in a fixed order', () => {
    const views = ['memory:a', 'memory:b', 'preference:r', 'turn:1', 'message'].map((id) => itemView({ id }, run));
    expect(givenCounts(views)).toEqual([
      { kind: 'memory', count: 2 },
      { kind: 'rule', count: 1 },
      { kind: 'turn', count: 1 },
    ]);
  });
});
