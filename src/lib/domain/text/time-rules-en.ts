/**
 * English time expressions. Conventions (documented because English is ambiguous here):
 * - "last Saturday" = the most recent Saturday before today; "this Saturday" = Saturday of the current
 *   (Monday-first) week; "next Saturday" = the first Saturday after today; a bare "Saturday" = the most recent
 *   Saturday on or before today (recall looks back).
 * - "two weeks ago" = the calendar week two weeks back; "3 months ago" = that calendar month.
 * - "past week" / "last 3 days" are rolling windows ending today.
 * - Month names must be capitalised when the word is also an English word ("May", "March"): "this may" is a verb.
 */
import {
  dayRange, mostRecentYear, nextWeekday, previousWeekday, relativeDay, relativeMonth, relativeWeek, rollingDays,
  unitRange, unitSpan, weekdayOfWeek, yearRange, isValidDate, dayPart, monthRange, type Calendar, type TimeUnit,
} from './time-calendar';
import { day, resolveHoliday, span, type Holiday, type TimeRule } from './time-rules';

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, 'a couple of': 2, 'couple of': 2, 'a couple': 2,
};
const FEW = /^(?:a few|few|several|some)$/i;
const NUM = String.raw`(\d{1,3}|a couple of|couple of|a few|few|several|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?`;
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = String.raw`((?:19|20)\d\d)`;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const WEEKDAY = String.raw`(Mon(?:day)?|Tue(?:s|sday)?|Wed(?:nesday)?|Thu(?:rs|rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?)`;
const PARTS: Record<string, [number, number]> = {
  morning: [5, 12], noon: [11, 14], midday: [11, 14], afternoon: [12, 18], evening: [18, 24], night: [18, 30],
};

function count(word: string): number | null {
  const w = word.toLowerCase();
  if (/^\d+$/.test(w)) return Number(w);
  return NUMBER_WORDS[w] ?? null;
}

/** Month 1..12 from a name; null for a lowercase "may"/"march" (verbs far more often than months). */
export function monthOf(name: string): number | null {
  if (/^(?:may|mar|march)$/.test(name)) return null;
  const i = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return i < 0 ? null : i + 1;
}

export function weekdayOf(name: string): number {
  return WEEKDAYS.findIndex((w) => w.startsWith(name.slice(0, 3).toLowerCase()));
}

const unit = (u: string) => u.toLowerCase().replace(/s$/, '') as TimeUnit;

const HOLIDAYS: [RegExp, Holiday][] = [
  [/^christmas eve$/i, 'christmasEve'],
  [/^(?:christmas(?: day)?|xmas)$/i, 'christmas'],
  [/^new year['’]?s eve$/i, 'newYearsEve'],
  [/^new year(?:['’]?s(?: day)?)?$/i, 'newYear'],
  [/^valentine['’]?s(?: day)?$/i, 'valentine'],
  [/^halloween$/i, 'halloween'],
  [/^(?:independence day|the fourth of july|july 4th)$/i, 'independence'],
  [/^thanksgiving(?: day)?$/i, 'thanksgiving'],
  [/^mother['’]?s day$/i, 'mothersDay'],
  [/^father['’]?s day$/i, 'fathersDay'],
];
const HOLIDAY = String.raw`(Christmas Eve|Christmas(?: Day)?|Xmas|New Year['’]?s Eve|New Year(?:['’]?s(?: Day)?)?|Valentine['’]?s(?: Day)?|Halloween|Independence Day|the Fourth of July|July 4th|Thanksgiving(?: Day)?|Mother['’]?s Day|Father['’]?s Day)`;

function date(cal: Calendar, year: number, month: number | null, d: number) {
  return month !== null && isValidDate(year, month, d) ? day(dayRange(cal, year, month, d)) : null;
}

export const EN_RULES: TimeRule[] = [
  {
    pattern: /\b(?:the\s+)?day\s+(before\s+yesterday|after\s+tomorrow)\b/gi,
    resolve: (m, cal) => day(relativeDay(cal, /^before/i.test(m[1] ?? '') ? -2 : 2)),
  },
  {
    pattern: /\b(today|yesterday|tomorrow|tonight)\b/gi,
    resolve: (m, cal) => {
      const w = (m[1] ?? '').toLowerCase();
      if (w === 'tonight') return span(dayPart(relativeDay(cal, 0), 18, 30));
      return day(relativeDay(cal, w === 'today' ? 0 : w === 'yesterday' ? -1 : 1));
    },
  },
  {
    pattern: /\b(this|yesterday|tomorrow|last)\s+(morning|afternoon|evening|night)\b/gi,
    resolve: (m, cal) => {
      const which = (m[1] ?? '').toLowerCase();
      const part = (m[2] ?? '').toLowerCase();
      if (which === 'last' && part !== 'night') return null;
      const offset = which === 'this' ? 0 : which === 'tomorrow' ? 1 : -1;
      const [from, to] = PARTS[part]!;
      return span(dayPart(relativeDay(cal, offset), from, to));
    },
  },
  {
    pattern: new RegExp(String.raw`\b${NUM}\s+(day|week|month|year)s?\s+ago\b`, 'gi'),
    resolve: (m, cal) => {
      const u = unit(m[2] ?? '');
      if (FEW.test(m[1] ?? '')) return span(unitSpan(cal, u, -5, -2));
      const n = count(m[1] ?? '');
      if (n === null) return null;
      return u === 'day' ? day(unitRange(cal, u, -n)) : span(unitRange(cal, u, -n));
    },
  },
  {
    pattern: new RegExp(String.raw`\b(?:the\s+|in\s+the\s+)?(?:last|past)\s+${NUM}\s+(day|week|month|year)s\b`, 'gi'),
    resolve: (m, cal) => {
      const n = FEW.test(m[1] ?? '') ? 5 : count(m[1] ?? '');
      if (n === null) return null;
      const days = { day: 1, week: 7, month: 30, year: 365 }[unit(m[2] ?? '')];
      return span(rollingDays(cal, n * days));
    },
  },
  {
    pattern: /\b(last|this|next|past)\s+(week|weekend|month|year)\b/gi,
    resolve: (m, cal) => {
      const which = (m[1] ?? '').toLowerCase();
      const u = (m[2] ?? '').toLowerCase();
      if (which === 'past') return span(rollingDays(cal, { week: 7, weekend: 7, month: 30, year: 365 }[u] ?? 7));
      const offset = which === 'last' ? -1 : which === 'next' ? 1 : 0;
      if (u === 'weekend') return span(weekdayOfWeek(cal, offset, 5, 2));
      if (u === 'week') return span(relativeWeek(cal, offset));
      if (u === 'month') return span(relativeMonth(cal, offset));
      return span(yearRange(cal, cal.year + offset));
    },
  },
  {
    pattern: new RegExp(String.raw`\b(?:(last|this|next|on)\s+)?${WEEKDAY}\b`, 'gi'),
    resolve: (m, cal) => {
      const which = (m[1] ?? '').toLowerCase();
      const wd = weekdayOf(m[2] ?? '');
      // Abbreviations alone ("Sat", "Sun", "wed") are words too; only full names stand without a modifier.
      if (!which && !/day$/i.test(m[2] ?? '')) return null;
      if (which === 'last') return day(previousWeekday(cal, wd, false));
      if (which === 'this') return day(weekdayOfWeek(cal, 0, wd));
      if (which === 'next') return day(nextWeekday(cal, wd));
      return day(previousWeekday(cal, wd, true));
    },
  },
  {
    pattern: new RegExp(String.raw`\b(?:(last|this|next)\s+)?${HOLIDAY}(?:,?\s+${YEAR})?\b`, 'gi'),
    resolve: (m, cal) => {
      const holiday = HOLIDAYS.find(([re]) => re.test(m[2] ?? ''))?.[1];
      if (!holiday) return null;
      const which = (m[1] ?? '').toLowerCase();
      if (m[3]) return resolveHoliday(cal, holiday, { kind: 'year', year: Number(m[3]) });
      return resolveHoliday(cal, holiday, { kind: which === 'last' || which === 'this' || which === 'next' ? which : 'recent' });
    },
  },
  {
    pattern: /\b((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})\b/g,
    resolve: (m, cal) => {
      return date(cal, Number(m[1]), Number(m[2]), Number(m[3]));
    },
  },
  {
    pattern: new RegExp(String.raw`\b${DAY}(?:\s+of)?\s+${MONTH}(?:,?\s+${YEAR})?\b`, 'gi'),
    resolve: (m, cal) => {
      const month = monthOf(m[2] ?? '');
      if (month === null) return null;
      const d = Number(m[1]);
      return date(cal, m[3] ? Number(m[3]) : mostRecentYear(cal, month, d), month, d);
    },
  },
  {
    pattern: new RegExp(String.raw`\b${MONTH}\s+${DAY}(?:,?\s+${YEAR})?\b(?![:.]\d)`, 'gi'),
    resolve: (m, cal) => {
      const month = monthOf(m[1] ?? '');
      if (month === null) return null;
      const d = Number(m[2]);
      return date(cal, m[3] ? Number(m[3]) : mostRecentYear(cal, month, d), month, d);
    },
  },
  {
    pattern: new RegExp(String.raw`\b${MONTH},?\s+${YEAR}\b`, 'gi'),
    resolve: (m, cal) => {
      const month = monthOf(m[1] ?? '');
      return month === null ? null : span(monthRange(cal, Number(m[2]), month));
    },
  },
  {
    pattern: new RegExp(String.raw`\b(in|during|since|until|by|last|this|next|early|late|mid|of)\s+(?:early\s+|late\s+|mid-?)?${MONTH}\b`, 'gi'),
    resolve: (m, cal) => {
      const month = monthOf(m[2] ?? '');
      if (month === null) return null;
      const which = (m[1] ?? '').toLowerCase();
      let year = mostRecentYear(cal, month);
      if (which === 'this') year = cal.year;
      else if (which === 'next') year = month > cal.month ? cal.year : cal.year + 1;
      else if (which === 'last') year = month < cal.month ? cal.year : cal.year - 1;
      return span(monthRange(cal, year, month));
    },
  },
  {
    pattern: new RegExp(String.raw`\b(?:in|during|since|of|year)\s+${YEAR}\b`, 'gi'),
    resolve: (m, cal) => span(yearRange(cal, Number(m[1]))),
  },
];

export const EN_DAY_PART = /^,?\s+(?:in\s+the\s+)?(morning|afternoon|evening|night)\b/i;

export function enDayPart(word: string): [number, number] | null {
  return PARTS[word.toLowerCase()] ?? null;
}
