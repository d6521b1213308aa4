import type { ImportedConversation } from './types';

/** Earliest and latest plausible message times: anything outside is a broken field, not a date. */
const MIN_MS = Date.UTC(1990, 0, 1);
const MAX_MS = Date.UTC(2200, 0, 1);
const plausible = (ms: number) => Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;

/** Seconds since the epoch (ChatGPT's `create_time`, possibly fractional) → ms, or null. */
export function fromEpochSeconds(value: unknown): number | null {
  if (typeof value !== 'number') return null;
  const ms = Math.round(value * 1000);
  return plausible(ms) ? ms : null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The date forms seen in chat exports, read as UTC when they carry no zone: ISO 8601, epoch ms or
 * seconds, SillyTavern's `2024-1-15 @10h 30m 00s 000ms` and `January 15, 2024 10:30am`, and
 * `2024-01-15 10:30[:00]`. Anything else is null (the caller fills it from the neighbours).
 */
export function parseLooseDate(value: unknown): number | null {
  if (typeof value === 'number') return plausible(value) ? value : fromEpochSeconds(value);
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (/^\d{10,13}(\.\d+)?$/.test(s)) return parseLooseDate(Number(s));
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})\s*@(\d{1,2})h\s*(\d{1,2})m\s*(\d{1,2})s(?:\s*(\d{1,3})ms)?$/.exec(s);
  if (m) return utc(m.slice(1).map((x) => Number(x ?? 0)));
  m = /^([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})\s+(\d{1,2}):(\d{2})\s*(am|pm)?$/i.exec(s);
  if (m) {
    const month = MONTHS.indexOf((m[1] as string).toLowerCase());
    if (month === -1) return null;
    let hour = Number(m[4]);
    const half = m[6]?.toLowerCase();
    if (half === 'pm' && hour < 12) hour += 12;
    if (half === 'am' && hour === 12) hour = 0;
    return utc([Number(m[3]), month + 1, Number(m[2]), hour, Number(m[5]), 0, 0]);
  }
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (m) return utc([Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), 0]);
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) {
    const ms = Date.parse(s);
    return plausible(ms) ? ms : null;
  }
  return null;
}

function utc(p: number[]): number | null {
  const [y, mo, d, h, mi, sec, ms] = p as [number, number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return null;
  const t = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  return plausible(t) ? t : null;
}

/**
 * Every message gets a time: its own, else the one before it, else the first known one after it, else
 * the conversation's, else `fallback` (the import's moment). Returns the conversation's start.
 */
export function fillTimes(c: ImportedConversation, fallback: number): { createdAt: number; lastAt: number } {
  const known = c.messages.find((m) => m.createdAt !== null)?.createdAt ?? null;
  let previous: number = c.createdAt ?? known ?? fallback;
  for (const m of c.messages) {
    if (m.createdAt === null) m.createdAt = previous;
    previous = m.createdAt;
  }
  const createdAt = c.createdAt ?? (c.messages[0]?.createdAt as number | undefined) ?? fallback;
  c.createdAt = createdAt;
  const lastAt = c.messages.reduce((max, m) => Math.max(max, m.createdAt as number), createdAt);
  return { createdAt, lastAt };
}
