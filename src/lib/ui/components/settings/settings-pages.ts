/**
 * Settings, one short page each with its own address (issue 15: one page was ~4,600 px long).
 * Old links (`/settings#model`, `/settings#outbox`, `/settings#setting-memory-…`) still land on the
 * page that holds what they point at.
 */
export const SETTINGS_PAGES = ['general', 'model', 'privacy', 'memory', 'storage', 'maintenance', 'backup'] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number];

/** Anchors inside a page that are not the page's own name. */
const ANCHORS: Record<string, SettingsPage> = { outbox: 'storage', erase: 'storage' };

export function settingsPageFor(hash: string): SettingsPage {
  const anchor = decodeURIComponent(hash.replace(/^#/u, ''));
  if ((SETTINGS_PAGES as readonly string[]).includes(anchor)) return anchor as SettingsPage;
  if (ANCHORS[anchor]) return ANCHORS[anchor];
  // Each memory setting's field is `setting-<key>` (setting-input.svelte).
  if (anchor.startsWith('setting-')) return 'memory';
  return 'general';
}

/** Where an old `/settings#…` link goes now: the page, keeping the anchor when it is inside the page. */
export function settingsHref(hash: string): string {
  const page = settingsPageFor(hash);
  const anchor = decodeURIComponent(hash.replace(/^#/u, ''));
  return anchor && anchor !== page ? `/settings/${page}#${encodeURIComponent(anchor)}` : `/settings/${page}`;
}
