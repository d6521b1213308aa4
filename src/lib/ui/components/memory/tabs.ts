/** The memory page's three tabs; the selected one is in the URL (`?tab=`), `?id=` opens a memory. */
export const MEMORY_TABS = ['memories', 'profile', 'preferences'] as const;
export type MemoryTab = (typeof MEMORY_TABS)[number];

/** `?tab=` → a tab; a deep link to a memory (`?id=`) always shows the Memories tab. */
export function parseTab(params: URLSearchParams): MemoryTab {
  if (params.get('id')) return 'memories';
  const tab = params.get('tab');
  return (MEMORY_TABS as readonly string[]).includes(tab ?? '') ? (tab as MemoryTab) : 'memories';
}

/** The page's URL for a tab and, on Memories, the open memory. */
export function memoryHref(opts: { tab: MemoryTab; id?: string | null }): string {
  const params = new URLSearchParams({ tab: opts.tab });
  if (opts.tab === 'memories' && opts.id) params.set('id', opts.id);
  return `/memory?${params.toString()}`;
}

/**
 * WAI-ARIA tabs keyboard model: ←/→ move to the previous/next tab (wrapping), Home/End to the first/last.
 * Null for any other key.
 */
export function tabForKey(key: string, current: MemoryTab): MemoryTab | null {
  const i = MEMORY_TABS.indexOf(current);
  const n = MEMORY_TABS.length;
  switch (key) {
    case 'ArrowRight':
      return MEMORY_TABS[(i + 1) % n]!;
    case 'ArrowLeft':
      return MEMORY_TABS[(i - 1 + n) % n]!;
    case 'Home':
      return MEMORY_TABS[0];
    case 'End':
      return MEMORY_TABS[n - 1]!;
    default:
      return null;
  }
}
