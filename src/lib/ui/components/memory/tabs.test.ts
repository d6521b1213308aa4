import { describe, expect, it } from 'vitest';
import { memoryHref, parseTab, tabForKey } from './tabs';

describe('memory page tabs', () => {
  it.each([
    { search: '', want: 'memories' },
    { search: '?tab=profile', want: 'profile' },
    { search: '?tab=preferences', want: 'preferences' },
    { search: '?tab=bogus', want: 'memories' },
    { search: '?tab=profile&id=m-1', want: 'memories' },
    { search: '?id=m-1', want: 'memories' },
  ])('"$search" shows $want', ({ search, want }) => {
    expect(parseTab(new URLSearchParams(search))).toBe(want);
  });

  it.each([
    { key: 'ArrowRight', from: 'memories' as const, want: 'profile' },
    { key: 'ArrowRight', from: 'preferences' as const, want: 'memories' },
    { key: 'ArrowLeft', from: 'memories' as const, want: 'preferences' },
    { key: 'Home', from: 'preferences' as const, want: 'memories' },
    { key: 'End', from: 'memories' as const, want: 'preferences' },
    { key: 'Enter', from: 'memories' as const, want: null },
  ])('$key from $from → $want', ({ key, from, want }) => {
    expect(tabForKey(key, from)).toBe(want);
  });

  it.each([
    { next: { tab: 'memories' as const, id: 'm 1' }, want: '/memory?tab=memories&id=m+1' },
    { next: { tab: 'memories' as const, id: null }, want: '/memory?tab=memories' },
    { next: { tab: 'profile' as const, id: 'm-1' }, want: '/memory?tab=profile' },
  ])('$want', ({ next, want }) => {
    expect(memoryHref(next)).toBe(want);
    expect(parseTab(new URL(want, 'http://x').searchParams)).toBe(next.tab);
  });
});
