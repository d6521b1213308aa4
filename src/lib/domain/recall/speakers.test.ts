import { describe, expect, it } from 'vitest';
import { MIN_NAME_VOTES, nameUse, speakersFromMentions } from './speakers';

describe('nameUse', () => {
  it.each([
    ['Hey Caroline! Good to see you!', 'Caroline', 'addresses'],
    ['Thanks, Mel! My friends are my rocks.', 'Mel', 'addresses'],
    ['That photo is stunning, Jon.', 'Jon', 'addresses'],
    ['Gina, you found the perfect spot!', 'Gina', 'addresses'],
    ["Hi! I'm Caroline, nice to meet you.", 'Caroline', 'self'],
    ['小明，你今天去哪里了？', '小明', 'addresses'],
    ['我叫小明，今年八岁。', '小明', 'self'],
    ['I went hiking with Caroline last week.', 'Caroline', null],
    ['Dr. Smith said I should rest.', 'Smith', null],
  ] as const)('%s (%s) → %s', (text, name, want) => {
    expect(nameUse(text, name)).toBe(want);
  });
});

describe('speakersFromMentions', () => {
  const m = (sessionId: string, role: 'user' | 'assistant', content: string) => ({ sessionId, role, content });

  it('a name addressed by one role belongs to the other role in that conversation', () => {
    const found = speakersFromMentions(
      [m('s1', 'assistant', 'Hey Caroline!'), m('s1', 'assistant', 'Wow, Caroline, great!'), m('s2', 'user', 'Thanks, Caroline!')],
      'Caroline',
    );
    expect(found).toEqual(new Map([['s1', 'user'], ['s2', 'assistant']]));
  });

  it('says nothing from fewer than the minimum uses, or from conversations that disagree', () => {
    expect(MIN_NAME_VOTES).toBeGreaterThan(1);
    expect(speakersFromMentions([m('s1', 'assistant', 'Hey Mel!')], 'Mel').size).toBe(0);
    const split = speakersFromMentions([m('s1', 'assistant', 'Hey Mel!'), m('s1', 'user', 'Thanks, Mel!'), m('s2', 'user', 'Hi Mel!')], 'Mel');
    expect(split).toEqual(new Map([['s2', 'assistant']]));
  });

  it('ignores mentions that are not a form of address', () => {
    expect(speakersFromMentions([m('s1', 'user', 'I met Tom yesterday.'), m('s1', 'user', 'Tom is my cousin.')], 'Tom').size).toBe(0);
  });
});
