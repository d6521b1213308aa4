import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors';
import { resolveTimeExpressions } from './time-expressions';
import { parseZhNumber } from './time-rules-zh';

/** Wednesday 15 May 2024, 10:30 UTC: the fixed "now" of every case below. */
const NOW = Date.UTC(2024, 4, 15, 10, 30);

/** "2024-05-14" or "2024-05-14 18" → ms of that local time at offset 0. */
function at(local: string): number {
  const [date, hour] = local.split(' ');
  const [y, m, d] = date!.split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!, Number(hour ?? 0));
}

type Case = [text: string, expression: string, start: string, end: string];

const EN: Case[] = [
  ['what did we talk about yesterday?', 'yesterday', '2024-05-14', '2024-05-15'],
  ['today', 'today', '2024-05-15', '2024-05-16'],
  ['the day before yesterday', 'the day before yesterday', '2024-05-13', '2024-05-14'],
  ['last week', 'last week', '2024-05-06', '2024-05-13'],
  ['this week', 'this week', '2024-05-13', '2024-05-20'],
  ['last Saturday', 'last Saturday', '2024-05-11', '2024-05-12'],
  ['last Wednesday', 'last Wednesday', '2024-05-08', '2024-05-09'], // today is a Wednesday
  ['on Monday', 'on Monday', '2024-05-13', '2024-05-14'],
  ['two days ago', 'two days ago', '2024-05-13', '2024-05-14'],
  ['3 days ago', '3 days ago', '2024-05-12', '2024-05-13'],
  ['a week ago', 'a week ago', '2024-05-06', '2024-05-13'],
  ['a few days ago', 'a few days ago', '2024-05-10', '2024-05-14'],
  ['last month', 'last month', '2024-04-01', '2024-05-01'],
  ['2 months ago', '2 months ago', '2024-03-01', '2024-04-01'],
  ['last year', 'last year', '2023-01-01', '2024-01-01'],
  ['last weekend', 'last weekend', '2024-05-11', '2024-05-13'],
  ['in the past week', 'past week', '2024-05-09', '2024-05-16'],
  ['the last 3 days', 'the last 3 days', '2024-05-13', '2024-05-16'],
  ['we met in March', 'in March', '2024-03-01', '2024-04-01'],
  ['back in June', 'in June', '2023-06-01', '2023-07-01'],
  ['last May', 'last May', '2023-05-01', '2023-06-01'],
  ['on 8 May 2023', '8 May 2023', '2023-05-08', '2023-05-09'],
  ['on 8th of May, 2023', '8th of May, 2023', '2023-05-08', '2023-05-09'],
  ['May 8, 2023', 'May 8, 2023', '2023-05-08', '2023-05-09'],
  ['on December 3', 'December 3', '2023-12-03', '2023-12-04'],
  ['2023-05-08', '2023-05-08', '2023-05-08', '2023-05-09'],
  ['June 2023', 'June 2023', '2023-06-01', '2023-07-01'],
  ['in 2022', 'in 2022', '2022-01-01', '2023-01-01'],
  ['this morning', 'this morning', '2024-05-15 05', '2024-05-15 12'],
  ['yesterday afternoon', 'yesterday afternoon', '2024-05-14 12', '2024-05-14 18'],
  ['last night', 'last night', '2024-05-14 18', '2024-05-15 06'],
  ['Saturday evening', 'Saturday evening', '2024-05-11 18', '2024-05-12 00'],
  ['last Christmas', 'last Christmas', '2023-12-25', '2023-12-26'],
  ['Christmas 2022', 'Christmas 2022', '2022-12-25', '2022-12-26'],
  ['Thanksgiving', 'Thanksgiving', '2023-11-23', '2023-11-24'],
  ['the week before 14 July 2022', 'the week before 14 July 2022', '2022-07-07', '2022-07-14'],
  ['the Sunday before 17 March 2022', 'the Sunday before 17 March 2022', '2022-03-13', '2022-03-14'],
];

const ZH: Case[] = [
  ['昨天我们聊了什么', '昨天', '2024-05-14', '2024-05-15'],
  ['前天', '前天', '2024-05-13', '2024-05-14'],
  ['大前天', '大前天', '2024-05-12', '2024-05-13'],
  ['三天前', '三天前', '2024-05-12', '2024-05-13'],
  ['10天以前', '10天以前', '2024-05-05', '2024-05-06'],
  ['上周', '上周', '2024-05-06', '2024-05-13'],
  ['上个星期', '上个星期', '2024-05-06', '2024-05-13'],
  ['这周', '这周', '2024-05-13', '2024-05-20'],
  ['上周六', '上周六', '2024-05-11', '2024-05-12'],
  ['上星期天', '上星期天', '2024-05-12', '2024-05-13'],
  ['周一', '周一', '2024-05-13', '2024-05-14'],
  ['两周前', '两周前', '2024-04-29', '2024-05-06'],
  ['上周末', '上周末', '2024-05-11', '2024-05-13'],
  ['上个月', '上个月', '2024-04-01', '2024-05-01'],
  ['三个月前', '三个月前', '2024-02-01', '2024-03-01'],
  ['去年', '去年', '2023-01-01', '2024-01-01'],
  ['前年', '前年', '2022-01-01', '2023-01-01'],
  ['去年圣诞节', '去年圣诞节', '2023-12-25', '2023-12-26'],
  ['今年的情人节', '今年的情人节', '2024-02-14', '2024-02-15'],
  ['圣诞节', '圣诞节', '2023-12-25', '2023-12-26'],
  ['国庆', '国庆', '2023-10-01', '2023-10-08'],
  ['五月', '五月', '2024-05-01', '2024-06-01'],
  ['十二月份', '十二月份', '2023-12-01', '2024-01-01'],
  ['去年五月', '去年五月', '2023-05-01', '2023-06-01'],
  ['5月8号', '5月8号', '2024-05-08', '2024-05-09'],
  ['6月1日', '6月1日', '2023-06-01', '2023-06-02'],
  ['2023年5月8日', '2023年5月8日', '2023-05-08', '2023-05-09'],
  ['二〇二三', '', '', ''],
  ['2022年', '2022年', '2022-01-01', '2023-01-01'],
  ['今天上午', '今天上午', '2024-05-15 05', '2024-05-15 12'],
  ['昨天晚上', '昨天晚上', '2024-05-14 18', '2024-05-15 00'],
  ['今早', '今早', '2024-05-15 05', '2024-05-15 12'],
  ['昨晚', '昨晚', '2024-05-14 18', '2024-05-15 06'],
  ['前几天', '前几天', '2024-05-10', '2024-05-14'],
  ['最近三天', '最近三天', '2024-05-13', '2024-05-16'],
];

describe('resolveTimeExpressions', () => {
  it.each([...EN, ...ZH])('%s → %s', (text, expression, start, end) => {
    const found = resolveTimeExpressions(text, { now: NOW });
    if (expression === '') return expect(found).toEqual([]);
    expect(found).toEqual([{ expression, start: at(start), end: at(end) }]);
  });

  it.each([
    ['no time at all', 'I like Python'],
    ['"may" the verb', 'this may be a problem, you may go'],
    ['"march" the verb', 'they march on'],
    ['abbreviations that are words', 'the sun was out; we sat down'],
    ['a span of months is not a month', '三个月的时间'],
  ])('nothing in %s', (_name, text) => {
    expect(resolveTimeExpressions(text, { now: NOW })).toEqual([]);
  });

  it('五月前 is "before May" (the month), not five months ago', () => {
    expect(resolveTimeExpressions('五月前', { now: NOW })).toEqual([{ expression: '五月', start: at('2024-05-01'), end: at('2024-06-01') }]);
  });

  it('finds several expressions in order of appearance, longest match wins', () => {
    const found = resolveTimeExpressions('我们去年五月去了上海，然后上周六又去了一次 and yesterday evening too', { now: NOW });
    expect(found.map((f) => f.expression)).toEqual(['去年五月', '上周六', 'yesterday evening']);
  });

  it('honours the time-zone offset: local days, not UTC days', () => {
    // 20:00 UTC on 14 May is already 04:00 on 15 May in UTC+8.
    const now = Date.UTC(2024, 4, 14, 20, 0);
    const [utc] = resolveTimeExpressions('昨天', { now });
    const [east] = resolveTimeExpressions('昨天', { now, tzOffsetMinutes: 480 });
    expect(utc).toMatchObject({ start: at('2024-05-13'), end: at('2024-05-14') });
    expect(east).toMatchObject({ start: at('2024-05-14') - 480 * 60_000, end: at('2024-05-15') - 480 * 60_000 });
  });

  it('crosses month and year boundaries', () => {
    const newYear = Date.UTC(2024, 0, 1, 9);
    expect(resolveTimeExpressions('yesterday', { now: newYear })[0]).toMatchObject({ start: at('2023-12-31'), end: at('2024-01-01') });
    expect(resolveTimeExpressions('上个月', { now: newYear })[0]).toMatchObject({ start: at('2023-12-01'), end: at('2024-01-01') });
    expect(resolveTimeExpressions('上周', { now: newYear })[0]).toMatchObject({ start: at('2023-12-25'), end: at('2024-01-01') });
  });

  it('rejects invalid options naming the field', () => {
    expect(() => resolveTimeExpressions('x', { now: Number.NaN })).toThrow(EngineError);
    expect(() => resolveTimeExpressions('x', { now: NOW, tzOffsetMinutes: 5000 })).toThrow(/`tzOffsetMinutes`/);
  });

  it('stays fast when a text is full of expressions', () => {
    const text = '上周昨天下午 last Saturday '.repeat(3_000);
    const started = performance.now();
    expect(resolveTimeExpressions(text, { now: NOW })).toHaveLength(9_000);
    expect(performance.now() - started).toBeLessThan(5_000); // generous; quadratic overlap checks took far longer
  });

  it('is deterministic', () => {
    const text = 'last Saturday and 去年圣诞节';
    expect(resolveTimeExpressions(text, { now: NOW })).toEqual(resolveTimeExpressions(text, { now: NOW }));
  });
});

describe('parseZhNumber', () => {
  it.each([
    ['3', 3],
    ['两', 2],
    ['十', 10],
    ['十二', 12],
    ['二十', 20],
    ['二十三', 23],
    ['三十一', 31],
    ['十十', null],
    ['', null],
  ])('%s → %s', (text, expected) => {
    expect(parseZhNumber(text)).toBe(expected);
  });
});
