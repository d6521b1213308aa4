/**
 * Every date the app shows goes through this one formatter (issue 15: the chat showed "11/25/2026,
 * 2:43:53 PM" while the memory page showed "2026年11月25日 14:41"): the chosen language's medium date
 * and short time — "Nov 25, 2026, 2:43 PM" / "2026年11月25日 14:43". One Intl.DateTimeFormat per
 * language, made once.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(ms: number, locale: string): string {
  if (!Number.isFinite(ms)) return '—';
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(locale, format);
  }
  return format.format(ms);
}

/** The machine-readable form for a `<time datetime>` attribute. */
export function isoDateTime(ms: number): string {
  return new Date(ms).toISOString();
}
