/**
 * Chinese time expressions. Conventions: 上周六 = Saturday of the previous Monday-first week (the calendar
 * reading); a bare 周六/星期六 = the most recent Saturday on or before today; 三天前 = that day; 两周前 = that
 * calendar week; 五月 / 5月8日 without a year = the most recent one on or before today (recall looks back);
 * 去年圣诞节 = 25 Dec of last year.
 */
import {
  dayPart, dayRange, isValidDate, monthRange, mostRecentYear, previousWeekday, relativeDay, relativeMonth,
  relativeWeek, rollingDays, unitRange, unitSpan, weekdayOfWeek, yearRange, type Calendar, type TimeUnit,
} from './time-calendar';
import { day, resolveHoliday, span, type Holiday, type TimeRule, type YearChoice } from './time-rules';

const DIGIT: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 3, 十二, 二十三, 两 → numbers up to 99; null for anything else. */
export function parseZhNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const m = /^([一二两三四五六七八九])?(十)?([一二三四五六七八九])?$/.exec(text);
  if (!m || text === '') return null;
  const [, tens, ten, ones] = m;
  if (!ten) return tens !== undefined && ones === undefined ? DIGIT[tens]! : null;
  return (tens ? DIGIT[tens]! : 1) * 10 + (ones ? DIGIT[ones]! : 0);
}

const NUM = '(\\d{1,3}|[一二两三四五六七八九十]{1,3}|几)';
const MONTH_NUM = '(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])';
const DAY_NUM = '(3[01]|[12]\\d|0?[1-9]|[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])';
const RELATIVE: Record<string, number> = { 上上: -2, 上: -1, 这: 0, 本: 0, 下: 1, 下下: 2 };
const REL = '(上上|上|这|本|下下|下)';
const WEEK = '(?:周|星期|礼拜)';
const WEEKDAY_CHAR: Record<string, number> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };
const YEAR_WORD: Record<string, number> = { 大前年: -3, 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
const YEAR_PART = '(?:(\\d{4})年|(大前年|前年|去年|今年|明年|后年))的?';
const DAY_WORD: Record<string, number> = { 大前天: -3, 前天: -2, 昨天: -1, 昨日: -1, 今天: 0, 今日: 0, 明天: 1, 明日: 1, 后天: 2, 大后天: 3 };
const SHORT_PART: Record<string, [number, number, number]> = {
  今早: [0, 5, 12], 今晨: [0, 5, 12], 今晚: [0, 18, 30], 昨晚: [-1, 18, 30], 昨夜: [-1, 18, 30], 明早: [1, 5, 12], 明晚: [1, 18, 30],
};
const HOLIDAYS: Record<string, Holiday> = {
  平安夜: 'christmasEve', 圣诞节: 'christmas', 圣诞: 'christmas', 元旦: 'newYear', 新年: 'newYear', 情人节: 'valentine',
  万圣节: 'halloween', 国庆节: 'nationalDay', 国庆: 'nationalDay', 劳动节: 'labourDay', 五一: 'labourDay',
  儿童节: 'childrensDay', 六一: 'childrensDay', 感恩节: 'thanksgiving', 母亲节: 'mothersDay', 父亲节: 'fathersDay',
  跨年夜: 'newYearsEve',
};
const HOLIDAY = `(${Object.keys(HOLIDAYS).sort((a, b) => b.length - a.length).join('|')})`;
const PARTS: Record<string, [number, number]> = {
  凌晨: [0, 6], 早上: [5, 10], 早晨: [5, 10], 清晨: [5, 10], 上午: [5, 12], 中午: [11, 14], 下午: [12, 18],
  傍晚: [17, 20], 晚上: [18, 24], 夜里: [21, 30], 夜间: [21, 30], 半夜: [21, 30], 深夜: [21, 30],
};

function unitOf(word: string): TimeUnit {
  if (word === '天' || word === '日') return 'day';
  if (word === '年') return 'year';
  if (word.endsWith('月')) return 'month';
  return 'week';
}

function yearOf(cal: Calendar, digits: string | undefined, word: string | undefined): number | null {
  if (digits) return Number(digits);
  if (word) return cal.year + (YEAR_WORD[word] ?? 0);
  return null;
}

export const ZH_RULES: TimeRule[] = [
  {
    pattern: /大前天|前天|昨天|昨日|今天|今日|明天|明日|大后天|后天/g,
    resolve: (m, cal) => day(relativeDay(cal, DAY_WORD[m[0]] ?? 0)),
  },
  {
    pattern: /今早|今晨|今晚|昨晚|昨夜|明早|明晚/g,
    resolve: (m, cal) => {
      const [offset, from, to] = SHORT_PART[m[0]]!;
      return span(dayPart(relativeDay(cal, offset), from, to));
    },
  },
  {
    pattern: new RegExp(`${NUM}(个)?(天|日|周|星期|礼拜|月|年)(?:以前|之前|前)`, 'g'),
    resolve: (m, cal) => {
      const unit = unitOf(m[3] ?? '');
      // 五月前 is "before May"; a span of months needs the classifier: 五个月前.
      if (unit === 'month' && !m[2]) return null;
      if (m[1] === '几') return span(unitSpan(cal, unit, -5, -2));
      const n = parseZhNumber(m[1] ?? '');
      if (n === null) return null;
      return unit === 'day' ? day(unitRange(cal, unit, -n)) : span(unitRange(cal, unit, -n));
    },
  },
  {
    pattern: /前几天|前两天|这几天|这两天|最近几天/g,
    resolve: (m, cal) => {
      if (m[0] === '前几天') return span(unitSpan(cal, 'day', -5, -2));
      if (m[0] === '前两天') return span(unitSpan(cal, 'day', -3, -1));
      return span(rollingDays(cal, m[0] === '这两天' ? 2 : 5));
    },
  },
  {
    pattern: new RegExp(`(?:过去|最近|近)${NUM}(个)?(天|周|星期|礼拜|月|年)`, 'g'),
    resolve: (m, cal) => {
      const n = m[1] === '几' ? 5 : parseZhNumber(m[1] ?? '');
      if (n === null) return null;
      const days = { day: 1, week: 7, month: 30, year: 365 }[unitOf(m[3] === '月' ? '个月' : (m[3] ?? ''))];
      return span(rollingDays(cal, n * days));
    },
  },
  {
    pattern: new RegExp(`${REL}?(?:个)?${WEEK}([一二三四五六日天])`, 'g'),
    resolve: (m, cal) => {
      const wd = WEEKDAY_CHAR[m[2] ?? ''] ?? 0;
      if (m[1] === undefined) return day(previousWeekday(cal, wd, true));
      return day(weekdayOfWeek(cal, RELATIVE[m[1]] ?? 0, wd));
    },
  },
  {
    pattern: new RegExp(`${REL}?(?:个)?周末`, 'g'),
    resolve: (m, cal) => {
      if (m[1] !== undefined) return span(weekdayOfWeek(cal, RELATIVE[m[1]] ?? 0, 5, 2));
      // A bare 周末 is this weekend once it has started, else the last one.
      return span(weekdayOfWeek(cal, cal.weekday >= 5 ? 0 : -1, 5, 2));
    },
  },
  {
    pattern: new RegExp(`${REL}(?:个)?${WEEK}`, 'g'),
    resolve: (m, cal) => span(relativeWeek(cal, RELATIVE[m[1] ?? ''] ?? 0)),
  },
  {
    pattern: new RegExp(`${REL}(?:个)?月(?!份?[0-9一二三四五六七八九十])`, 'g'),
    resolve: (m, cal) => span(relativeMonth(cal, RELATIVE[m[1] ?? ''] ?? 0)),
  },
  {
    pattern: new RegExp(`${YEAR_PART}${HOLIDAY}`, 'g'),
    resolve: (m, cal) => holiday(cal, m[3] ?? '', yearOf(cal, m[1], m[2])),
  },
  {
    pattern: new RegExp(HOLIDAY, 'g'),
    resolve: (m, cal) => holiday(cal, m[1] ?? '', null),
  },
  {
    // [year] month [day]: 2023年5月8日, 去年五月, 5月8号, 三月份
    pattern: new RegExp(`(?<![个几0-9])(?:${YEAR_PART})?${MONTH_NUM}月份?(?:${DAY_NUM}[日号])?`, 'g'),
    resolve: (m, cal) => {
      const month = parseZhNumber(m[3] ?? '');
      if (month === null || month < 1 || month > 12) return null;
      const d = m[4] ? parseZhNumber(m[4]) : null;
      const year = yearOf(cal, m[1], m[2]) ?? mostRecentYear(cal, month, d ?? 1);
      if (d === null) return span(monthRange(cal, year, month));
      return isValidDate(year, month, d) ? day(dayRange(cal, year, month, d)) : null;
    },
  },
  {
    pattern: /大前年|前年|去年|今年|明年|后年|(\d{4})年(?!\d|[一二三四五六七八九十]{1,2}月)/g,
    resolve: (m, cal) => span(yearRange(cal, m[1] ? Number(m[1]) : cal.year + (YEAR_WORD[m[0]] ?? 0))),
  },
];

function holiday(cal: Calendar, name: string, year: number | null) {
  const h = HOLIDAYS[name];
  if (!h) return null;
  const choice: YearChoice = year === null ? { kind: 'recent' } : { kind: 'year', year };
  return resolveHoliday(cal, h, choice);
}

export const ZH_DAY_PART = new RegExp(`^的?(${Object.keys(PARTS).join('|')})`);

export function zhDayPart(word: string): [number, number] | null {
  return PARTS[word] ?? null;
}
