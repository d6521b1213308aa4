/**
 * Time expressions in zh and en, resolved against a reference time, for time-aware recall ("what did I say
 * yesterday", "去年圣诞节我们去了哪里"). Deterministic: the result depends only on the text, `now` and the offset.
 *
 *   rules (en + zh) ──▶ candidates ──longest wins──▶ non-overlapping ──▶ + day part ──▶ + "the … before <date>"
 *
 * Ranges are [start, end) in ms, on the local calendar given by tzOffsetMinutes (east positive, default 0).
 */
import { EngineError } from '../errors';
import { DAY_MS, calendarAt, dayPart, nextWeekday, previousWeekday, relativeDay, type Calendar, type TimeRange } from './time-calendar';
import { EN_DAY_PART, EN_RULES, enDayPart, weekdayOf } from './time-rules-en';
import { ZH_DAY_PART, ZH_RULES, zhDayPart } from './time-rules-zh';
import type { Resolved } from './time-rules';

export interface TimeExpression {
  /** The words as they appear in the text. */
  expression: string;
  start: number;
  end: number;
}

interface Candidate extends Resolved {
  index: number;
  length: number;
}

const RULES = [...EN_RULES, ...ZH_RULES];
/** The prefix of an anchored expression: "the week before ", "the Sunday after ". */
const ANCHORED = /\bthe\s+(day|week|weekend|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\s+(before|after)\s+$/i;
const MAX_OFFSET_MINUTES = 14 * 60;

function candidates(text: string, cal: Calendar): Candidate[] {
  const found: Candidate[] = [];
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const resolved = rule.resolve(m, cal);
      if (resolved) found.push({ ...resolved, index: m.index, length: m[0].length });
    }
  }
  return found;
}

/**
 * Longest first, then leftmost: "上周六" beats "上周", "去年圣诞节" beats "去年". Occupied characters are marked
 * in a bitmap, so the cost is the total length of the candidates, not their number squared.
 */
function nonOverlapping(found: readonly Candidate[], textLength: number): Candidate[] {
  const taken = new Uint8Array(textLength);
  const chosen: Candidate[] = [];
  const sorted = [...found].sort((a, b) => b.length - a.length || a.index - b.index);
  for (const c of sorted) {
    const end = c.index + c.length;
    let free = true;
    for (let i = c.index; i < end && free; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, c.index, end);
    chosen.push(c);
  }
  return chosen.sort((a, b) => a.index - b.index);
}

/** "yesterday evening", "昨天下午", "Saturday night": narrow a single day to a part of it. */
function withDayPart(text: string, c: Candidate, next: Candidate | undefined): Candidate {
  if (!c.dayLike) return c;
  const rest = text.slice(c.index + c.length, next ? next.index : undefined);
  const en = EN_DAY_PART.exec(rest);
  const m = en ?? ZH_DAY_PART.exec(rest);
  const hours = m ? (en ? enDayPart(m[1] ?? '') : zhDayPart(m[1] ?? '')) : null;
  if (!m || !hours) return c;
  return { ...c, ...dayPart(c, hours[0], hours[1]), dayLike: false, length: c.length + m[0].length };
}

/** "the week before 14 July 2022" (LoCoMo's phrasing): a span anchored on the date that follows. */
function withAnchor(text: string, c: Candidate, cal: Calendar): Candidate {
  if (!c.dayLike) return c;
  const m = ANCHORED.exec(text.slice(Math.max(0, c.index - 40), c.index));
  if (!m) return c;
  const what = (m[1] ?? '').toLowerCase();
  const before = (m[2] ?? '').toLowerCase() === 'before';
  const anchor = calendarAt(c.start, cal.tzOffsetMinutes);
  let range: TimeRange;
  let dayLike = true;
  if (what === 'day') range = relativeDay(anchor, before ? -1 : 1);
  else if (what === 'week') {
    range = before ? relativeDay(anchor, -7, 7) : relativeDay(anchor, 1, 7);
    dayLike = false;
  } else {
    // The weekday (for a weekend: its Saturday) strictly before or after the anchor day.
    const target = what === 'weekend' ? 5 : weekdayOf(what);
    const d = before ? previousWeekday(anchor, target, false) : nextWeekday(anchor, target);
    range = what === 'weekend' ? { start: d.start, end: d.start + 2 * DAY_MS } : d;
    dayLike = what !== 'weekend';
  }
  return { ...range, dayLike, index: c.index - m[0].length, length: c.length + m[0].length };
}

/**
 * Resolves relative and absolute time expressions in zh and en against `now` (ms): yesterday/昨天, last week/上周,
 * last Saturday/上周六, two days ago/前天/三天前, last month/上个月, last year/去年, 去年圣诞节, in May/五月,
 * "on 8 May 2023", 2023-05-08, this morning/今天上午… In order of appearance; empty when there are none.
 */
export function resolveTimeExpressions(text: string, opts: { now: number; tzOffsetMinutes?: number }): TimeExpression[] {
  const tz = opts.tzOffsetMinutes ?? 0;
  if (!Number.isFinite(opts.now)) throw new EngineError('INVALID_ARGUMENT', 'Invalid `now`: expected a finite number of milliseconds');
  if (!Number.isInteger(tz) || Math.abs(tz) > MAX_OFFSET_MINUTES) {
    throw new EngineError('INVALID_ARGUMENT', 'Invalid `tzOffsetMinutes`: expected an integer between -840 and 840');
  }
  const cal = calendarAt(opts.now, tz);
  const chosen = nonOverlapping(candidates(text, cal), text.length);
  const extended = chosen.map((c, i) => withAnchor(text, withDayPart(text, c, chosen[i + 1]), cal));
  // An anchored span swallows what it was built from ("the Sunday before 17 March" holds "Sunday").
  return nonOverlapping(extended, text.length).map((c) => ({ expression: text.slice(c.index, c.index + c.length), start: c.start, end: c.end }));
}
