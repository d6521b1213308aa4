/**
 * The browser's split of this site's storage (`navigator.storage.estimate().usageDetails`, Chromium),
 * as the parts a person can name, largest first. Other browsers give no split: nothing is listed.
 */
export type BrowserPartKind = 'fileSystem' | 'indexedDB' | 'caches' | 'serviceWorkerRegistrations' | 'other';
export interface BrowserPart {
  kind: BrowserPartKind;
  bytes: number;
}

const KNOWN: readonly BrowserPartKind[] = ['fileSystem', 'indexedDB', 'caches', 'serviceWorkerRegistrations'];

export function browserParts(estimate: { usageDetails?: Record<string, number> } | null): BrowserPart[] {
  const details = estimate?.usageDetails;
  if (!details) return [];
  const parts = new Map<BrowserPartKind, number>();
  for (const [key, bytes] of Object.entries(details)) {
    if (!Number.isFinite(bytes) || bytes <= 0) continue;
    const kind = (KNOWN as readonly string[]).includes(key) ? (key as BrowserPartKind) : 'other';
    parts.set(kind, (parts.get(kind) ?? 0) + bytes);
  }
  return [...parts].map(([kind, bytes]) => ({ kind, bytes })).sort((a, b) => b.bytes - a.bytes);
}
