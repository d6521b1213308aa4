/**
 * Human-readable sizes. Decimal (SI) steps, because the labels are Intl's kilobyte/megabyte units, which
 * are powers of 1000; browsers' own storage pages use the same.
 */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  // One decimal while it carries information (1.5 MB), none for bytes or large values (123 MB).
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: digits,
  }).format(value);
}

/** A date and time in the reader's language: the app's one date format (app/dates.ts). */
export { formatDateTime } from '../../app/dates';
