import { describe, expect, it } from 'vitest';
import { jaccard, NEAR_COPY, nearCopies, shingles } from './redundancy';

describe('shingles', () => {
  it.each([
    ['Latin words, lower-cased', 'Redis CACHE expiry', ['redis', 'cache', 'expiry']],
    ['CJK as character pairs, Latin as words', 'OrderService 的问题', ['的问', '问题', 'orderservice']],
    ['full-width forms normalised', 'ＲＥＤＩＳ', ['redis']],
  ])('%s', (_, text, want) => {
    expect([...shingles(text)].sort()).toEqual([...want].sort());
  });
});

describe('nearCopies', () => {
  it.each([
    ['the same sentence with another number', 'OrderService 的问题现在又出现在第96轮了', 'OrderService 的问题现在又出现在第97轮了', true],
    ['the same request reworded a little', 'Can you help me come up with ideas for engaging content on Instagram?', 'Can you help me come up with some ideas for engaging content on Instagram?', true],
    ['two turns on one topic', 'OrderService 第5个问题：下单时库存扣减不一致', 'OrderService 的问题现在又出现在第97轮了', false],
    ['unrelated', 'I love painting lakes.', 'The deploy failed again.', false],
  ])('%s → %s', (_, a, b, want) => {
    expect(nearCopies(shingles(a), shingles(b))).toBe(want);
  });

  it('is Jaccard similarity against a fixed threshold', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3, 10);
    expect(jaccard(new Set(), new Set())).toBe(0);
    expect(NEAR_COPY).toBe(0.6);
  });
});
