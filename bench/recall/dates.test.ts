import { describe, expect, it } from 'vitest';
import { parseIsoDay, parseLocomoDate, parseLongMemEvalDate } from './dates';

describe('data set dates', () => {
  it.each<[string, string]>([
    ['4:20 pm on 3 March, 2022', '2022-03-03T16:20:00.000Z'],
    ['12:15 am on 21 October, 2021', '2021-10-21T00:15:00.000Z'],
    ['12:30 pm on 1 Jan, 2024', '2024-01-01T12:30:00.000Z'],
  ])('LoCoMo %s', (text, iso) => {
    expect(new Date(parseLocomoDate(text)).toISOString()).toBe(iso);
  });

  it('LongMemEval', () => {
    expect(new Date(parseLongMemEvalDate('2023/05/20 (Sat) 02:21')).toISOString()).toBe('2023-05-20T02:21:00.000Z');
  });

  it('MADial days are read at noon UTC', () => {
    expect(new Date(parseIsoDay('2023-12-25')).toISOString()).toBe('2023-12-25T12:00:00.000Z');
  });

  it('refuses what it cannot read instead of guessing a date', () => {
    expect(() => parseLocomoDate('yesterday')).toThrow(/LoCoMo/);
    expect(() => parseLongMemEvalDate('2023-05-20')).toThrow(/LongMemEval/);
  });
});
