/**
 * What a time rule is, and the fixed-date holidays both languages share. Rules live in time-rules-en.ts and
 * time-rules-zh.ts; time-expressions.ts runs them.
 */
import { dayRange, mostRecentYear, nthWeekdayOfMonth, type Calendar, type TimeRange } from './time-calendar';

export interface Resolved extends TimeRange {
  /** A single day, which a following day part may narrow ("yesterday" + " evening", "昨天" + "下午"). */
  dayLike: boolean;
}

export interface TimeRule {
  /** Global regex; each match is one candidate expression. */
  pattern: RegExp;
  resolve(match: RegExpMatchArray, cal: Calendar): Resolved | null;
}

export const day = (range: TimeRange): Resolved => ({ ...range, dayLike: true });
export const span = (range: TimeRange): Resolved => ({ ...range, dayLike: false });

export type Holiday =
  | 'christmas' | 'christmasEve' | 'newYear' | 'newYearsEve' | 'valentine' | 'halloween' | 'independence'
  | 'thanksgiving' | 'mothersDay' | 'fathersDay' | 'nationalDay' | 'labourDay' | 'childrensDay';

/** Month, day and length in days of a holiday in a given year (only holidays with a Gregorian rule). */
export function holidayDate(holiday: Holiday, year: number): { month: number; day: number; days: number } {
  switch (holiday) {
    case 'christmas': return { month: 12, day: 25, days: 1 };
    case 'christmasEve': return { month: 12, day: 24, days: 1 };
    case 'newYear': return { month: 1, day: 1, days: 1 };
    case 'newYearsEve': return { month: 12, day: 31, days: 1 };
    case 'valentine': return { month: 2, day: 14, days: 1 };
    case 'halloween': return { month: 10, day: 31, days: 1 };
    case 'independence': return { month: 7, day: 4, days: 1 };
    case 'thanksgiving': return { month: 11, day: nthWeekdayOfMonth(year, 11, 3, 4), days: 1 };
    case 'mothersDay': return { month: 5, day: nthWeekdayOfMonth(year, 5, 6, 2), days: 1 };
    case 'fathersDay': return { month: 6, day: nthWeekdayOfMonth(year, 6, 6, 3), days: 1 };
    case 'nationalDay': return { month: 10, day: 1, days: 7 };
    case 'labourDay': return { month: 5, day: 1, days: 5 };
    case 'childrensDay': return { month: 6, day: 1, days: 1 };
  }
}

export type YearChoice = { kind: 'year'; year: number } | { kind: 'last' | 'this' | 'next' | 'recent' };

/**
 * A holiday resolved against a year choice: an explicit year; 'this' year's; 'last' = the most recent one
 * strictly before today; 'next' = the first one after today; 'recent' = the most recent one on or before today.
 */
export function resolveHoliday(cal: Calendar, holiday: Holiday, choice: YearChoice): Resolved {
  const at = (year: number) => {
    const h = holidayDate(holiday, year);
    return { year, ...h, range: dayRange(cal, year, h.month, h.day, h.days) };
  };
  let year: number;
  if (choice.kind === 'year') year = choice.year;
  else if (choice.kind === 'this') year = cal.year;
  else {
    const thisYear = at(cal.year);
    const todayStart = dayRange(cal, cal.year, cal.month, cal.day).start;
    if (choice.kind === 'next') year = thisYear.range.start > todayStart ? cal.year : cal.year + 1;
    else if (choice.kind === 'last') year = thisYear.range.start < todayStart ? cal.year : cal.year - 1;
    else year = mostRecentYear(cal, thisYear.month, thisYear.day);
  }
  const h = at(year);
  return { ...h.range, dayLike: h.days === 1 };
}
