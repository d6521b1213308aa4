/**
 * Local-calendar arithmetic for time expressions. "Local" is UTC shifted by a fixed offset (tzOffsetMinutes, east
 * positive: UTC+8 → 480); no DST rules, so results are deterministic on every machine. Date.UTC normalises
 * overflowing fields (day 0, day 35, month 13), which does the carrying for us.
 *
 * Weeks start on Monday (ISO 8601, and the Chinese 周一…周日 convention).
 */

export interface TimeRange {
  start: number;
  end: number;
}

export interface Calendar {
  readonly now: number;
  readonly tzOffsetMinutes: number;
  /** Today in local terms; month is 1..12; weekday 0 = Monday … 6 = Sunday. */
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly weekday: number;
}

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function calendarAt(now: number, tzOffsetMinutes: number): Calendar {
  const local = new Date(now + tzOffsetMinutes * 60_000);
  return {
    now,
    tzOffsetMinutes,
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    weekday: (local.getUTCDay() + 6) % 7,
  };
}

/** Start of a local day (fields may overflow: day 0 is the last day of the previous month). */
export function dayStart(cal: Calendar, year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) - cal.tzOffsetMinutes * 60_000;
}

export function dayRange(cal: Calendar, year: number, month: number, day: number, days = 1): TimeRange {
  return { start: dayStart(cal, year, month, day), end: dayStart(cal, year, month, day + days) };
}

/** The day `offset` days from today (−1 = yesterday). */
export function relativeDay(cal: Calendar, offset: number, days = 1): TimeRange {
  return dayRange(cal, cal.year, cal.month, cal.day + offset, days);
}

/** The Monday-to-Monday week `offset` weeks from the current one (−1 = last week). */
export function relativeWeek(cal: Calendar, offset: number): TimeRange {
  return relativeDay(cal, -cal.weekday + offset * 7, 7);
}

/** Weekday 0..6 (Monday first) of the week `weekOffset` weeks from this one. */
export function weekdayOfWeek(cal: Calendar, weekOffset: number, weekday: number, days = 1): TimeRange {
  return relativeDay(cal, -cal.weekday + weekOffset * 7 + weekday, days);
}

/** The most recent `weekday` before today (strictly), or on/before today when `includeToday`. */
export function previousWeekday(cal: Calendar, weekday: number, includeToday: boolean): TimeRange {
  let back = (cal.weekday - weekday + 7) % 7;
  if (back === 0 && !includeToday) back = 7;
  return relativeDay(cal, -back);
}

/** The next `weekday` after today (strictly). */
export function nextWeekday(cal: Calendar, weekday: number): TimeRange {
  const ahead = (weekday - cal.weekday + 7) % 7 || 7;
  return relativeDay(cal, ahead);
}

export function monthRange(cal: Calendar, year: number, month: number, months = 1): TimeRange {
  return { start: dayStart(cal, year, month, 1), end: dayStart(cal, year, month + months, 1) };
}

export function relativeMonth(cal: Calendar, offset: number): TimeRange {
  return monthRange(cal, cal.year, cal.month + offset);
}

export function yearRange(cal: Calendar, year: number): TimeRange {
  return { start: dayStart(cal, year, 1, 1), end: dayStart(cal, year + 1, 1, 1) };
}

/**
 * The year in which month/day last happened: this year if that date is today or earlier, else last year.
 * Recall looks back, so "五月" or "May 8" said in February mean last year's.
 */
export function mostRecentYear(cal: Calendar, month: number, day = 1): number {
  return month < cal.month || (month === cal.month && day <= cal.day) ? cal.year : cal.year - 1;
}

/** Hours of a day part on a day range's first day; `to` may pass 24 (night runs into the next morning). */
export function dayPart(day: TimeRange, fromHour: number, toHour: number): TimeRange {
  return { start: day.start + fromHour * HOUR_MS, end: day.start + toHour * HOUR_MS };
}

/** The n-th (1-based) weekday of a month, e.g. Thanksgiving = 4th Thursday of November. */
export function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  const first = (new Date(Date.UTC(year, month - 1, 1)).getUTCDay() + 6) % 7;
  return 1 + ((weekday - first + 7) % 7) + (n - 1) * 7;
}

export type TimeUnit = 'day' | 'week' | 'month' | 'year';

/** One calendar unit `offset` units from the current one. */
export function unitRange(cal: Calendar, unit: TimeUnit, offset: number): TimeRange {
  switch (unit) {
    case 'day':
      return relativeDay(cal, offset);
    case 'week':
      return relativeWeek(cal, offset);
    case 'month':
      return relativeMonth(cal, offset);
    case 'year':
      return yearRange(cal, cal.year + offset);
  }
}

/** From the unit `from` units away to the unit `to` units away, both included (from ≤ to). */
export function unitSpan(cal: Calendar, unit: TimeUnit, from: number, to: number): TimeRange {
  return { start: unitRange(cal, unit, from).start, end: unitRange(cal, unit, to).end };
}

/** The last `count` units up to and including today ("the past 3 days", "最近一周"). */
export function rollingDays(cal: Calendar, days: number): TimeRange {
  return relativeDay(cal, -(days - 1), days);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isValidDate(year: number, month: number, day: number): boolean {
  return year >= 1900 && year <= 2200 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}
