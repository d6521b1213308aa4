import { describe, expect, it } from 'vitest';
import { languageGap, majorityLanguage } from './language-gap';

const english = ['My sister is called Lena.', 'I moved to Porto.', 'I am vegetarian.'];
const chinese = ['我妹妹叫莉娜。', '我搬到了波尔图。', '我吃素。'];

describe('issue 15: when word search cannot cross languages', () => {
  it.each([
    { name: 'Chinese question, English memories, no embedding model', query: '我妹妹叫什么名字？', library: english, semanticOn: false, want: { query: 'zh', library: 'en' } },
    { name: 'English question, Chinese memories', query: 'What is my sister called?', library: chinese, semanticOn: false, want: { query: 'en', library: 'zh' } },
    { name: 'same language', query: 'What is my sister called?', library: english, semanticOn: false, want: null },
    { name: 'an embedding model bridges languages', query: '我妹妹叫什么名字？', library: english, semanticOn: true, want: null },
    { name: 'no memories yet', query: '我妹妹叫什么名字？', library: [], semanticOn: false, want: null },
    { name: 'a mixed library is no clear gap', query: '我妹妹叫什么名字？', library: [...english.slice(0, 2), ...chinese.slice(0, 2)], semanticOn: false, want: null },
    { name: 'an empty question', query: '  ', library: english, semanticOn: false, want: null },
  ])('$name', ({ query, library, semanticOn, want }) => {
    expect(languageGap({ query, library, semanticOn })).toEqual(want);
  });

  it('a library counts as one language from 60 % of its memories on', () => {
    expect(majorityLanguage([...english, '我吃素。'])).toBe('en');
    expect(majorityLanguage(['I moved.', '我吃素。'])).toBeNull();
  });
});
