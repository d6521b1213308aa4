import { describe, expect, it } from 'vitest';
import { isStopWord } from './keywords';
import { cjkBigrams, gramsMatchQuery, gramsText, queryBigrams } from './grams';

describe('cjkBigrams', () => {
  it.each([
    ['在学校晚会上唱歌', ['在学', '学校', '校晚', '晚会', '会上', '上唱', '唱歌']],
    ['元旦晚会 表演', ['元旦', '旦晚', '晚会', '表演']],
    ['猫', ['猫']],
    ['Kiki 去了游乐园', ['去了', '了游', '游乐', '乐园']],
    ['only English here', []],
  ])('%s', (text, want) => {
    expect(cjkBigrams(text)).toEqual(want);
  });

  it('joins the pairs with spaces for the index column', () => {
    expect(gramsText('晚会')).toBe('晚会');
  });
});

describe('queryBigrams', () => {
  it('drops pairs made only of stop characters and repeats, and stops at max', () => {
    const stop = (g: string) => isStopWord(g) || [...g].every((c) => isStopWord(c));
    expect(queryBigrams('我们的晚会晚会', { max: 10, stop })).toEqual(['的晚', '晚会', '会晚']); // 我们, 们的: stop characters only
    expect(queryBigrams('元旦晚会表演魔术', { max: 2, stop })).toEqual(['元旦', '旦晚']);
  });
});

describe('gramsMatchQuery', () => {
  it.each([
    [['晚会', '表演'], 'grams : ("晚会" OR "表演")'],
    [['晚会', '晚会'], 'grams : ("晚会")'],
    [[], null],
    [['a"b'], null],
  ])('%j → %s', (grams, want) => {
    expect(gramsMatchQuery(grams)).toBe(want);
  });
});
