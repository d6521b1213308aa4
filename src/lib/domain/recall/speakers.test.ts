import { describe, expect, it } from 'vitest';
import { MIN_NAME_VOTES, nameUse, speakersFromMentions } from './speakers';

describe('nameUse', () => {
  it.each([
    ['Hey Priya! So good to see you!', 'Priya', 'addresses'],
    ['Thanks, Bea! My friends keep me going.', 'Bea', 'addresses'],
    ['That photo is lovely, Ned.', 'Ned', 'addresses'],
    ['Vera, you picked a great place!', 'Vera', 'addresses'],
    ["Hi! I'm Priya, nice to meet you.", 'Priya', 'self'],
    ['小明，你今天去哪里了？', '小明', 'addresses'],
    ['我叫小明，今年八岁。', '小明', 'self'],
    ['I went hiking with Priya last week.', 'Priya', null],
    ['Dr. Smith said I should rest.', 'Smith', null],
  ] as const)('%s (%s) → %s', (text, name, want) => {
    expect(nameUse(text, name)).toBe(want);
  });
});

describe('speakersFromMentions', () => {
  const m = (sessionId: string, role: 'user' | 'assistant', content: string) => ({ sessionId, role, content });

  it('a name addressed by one role belongs to the other role in that conversation', () => {
    const found = speakersFromMentions(
      [m('s1', 'assistant', 'Hey Priya!'), m('s1', 'assistant', 'Wow, Priya, great!'), m('s2', 'user', 'Thanks, Priya!')],
      'Priya',
    );
    expect(found).toEqual(new Map([['s1', 'user'], ['s2', 'assistant']]));
  });

  it('says nothing from fewer than the minimum uses, or from conversations that disagree', () => {
    expect(MIN_NAME_VOTES).toBeGreaterThan(1);
    expect(speakersFromMentions([m('s1', 'assistant', 'Hey Bea!')], 'Bea').size).toBe(0);
    const split = speakersFromMentions([m('s1', 'assistant', 'Hey Bea!'), m('s1', 'user', 'Thanks, Bea!'), m('s2', 'user', 'Hi Bea!')], 'Bea');
    expect(split).toEqual(new Map([['s2', 'assistant']]));
  });

  it('ignores mentions that are not a form of address', () => {
    expect(speakersFromMentions([m('s1', 'user', 'I met Tom yesterday.'), m('s1', 'user', 'Tom is my cousin.')], 'Tom').size).toBe(0);
  });
});
