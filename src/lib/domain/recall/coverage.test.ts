import { describe, expect, it } from 'vitest';
import { coverageMatcher, lightStem, termCoverage } from './coverage';

describe('lightStem', () => {
  it.each([
    ['researching', 'research'],
    ['researched', 'research'],
    ['stories', 'story'],
    ['paintings', 'painting'],
    ['cats', 'cats'], // short words stay as they are
    ['Josephine’s', 'josephin'],
    ['缓存', '缓存'],
  ])('%s → %s', (word, want) => {
    expect(lightStem(word)).toBe(want);
  });
});

describe('termCoverage', () => {
  const terms = [
    { keyword: 'travel', weight: 3 },
    { keyword: 'agencies', weight: 1 },
  ];
  it.each([
    ['I have been researching travel agencies.', 1],
    ['The travel plan is long.', 0.75],
    ['Agency fees are high.', 0.25], // agencies and agency meet
    ['Nothing related here.', 0],
  ])('%s → %s', (text, want) => {
    expect(termCoverage(text, terms)).toBeCloseTo(want, 10);
  });

  it('finds Chinese keywords as substrings and identifiers whole', () => {
    expect(termCoverage('昨天讨论了缓存淘汰策略', [{ keyword: '缓存', weight: 1 }])).toBe(1);
    expect(termCoverage('processPayment has a race', [{ keyword: 'processPayment', weight: 1 }])).toBe(1);
    expect(termCoverage('process the payment', [{ keyword: 'processPayment', weight: 1 }])).toBe(0);
  });
});

describe('coverageMatcher', () => {
  it.each([
    ['a plural with -ies meets its -y stem', 'She loves the stories about dragons.', [{ keyword: 'story', weight: 1 }], 1],
    ['a word that only starts like the term does not count', 'The storyline was dull.', [{ keyword: 'story', weight: 1 }], 0],
    ['all words of a multi-word keyword are needed', 'The sunrise over the lake.', [{ keyword: 'lake sunset', weight: 1 }], 0],
    ['full-width text is normalised first', 'ＰＹＴＨＯＮ　ｔｉｐｓ', [{ keyword: 'python', weight: 1 }], 1],
    ['no terms cover nothing', 'anything', [], 0],
  ] as const)('%s', (_, text, terms, want) => {
    expect(coverageMatcher(terms)(text)).toBeCloseTo(want, 10);
  });
});

describe('coverageMatcher with other forms', () => {
  it.each([
    ['I felt so small and calm.', 1],
    ['How do you feel about it?', 1],
    ['The lantern festival was amazing.', 0],
  ])('"feel" with its form "felt" in %s → %s', (text, want) => {
    expect(coverageMatcher([{ keyword: 'feel', weight: 1, forms: ['felt'] }])(text)).toBe(want);
  });
});
