import { describe, expect, it } from 'vitest';
import { extractKeywords, isStopWord } from './keywords';
import { EN_STOP_WORDS, ZH_STOP_WORDS } from './stopwords';

describe('extractKeywords', () => {
  it('001 "Keyword extraction from user message": Python, 代码, 喜欢; 我/用/写 filtered', () => {
    const keywords = extractKeywords('我喜欢用 Python 写代码');
    expect([...keywords].sort()).toEqual(['Python', '代码', '喜欢'].sort());
  });

  it.each([
    ['zh question words and particles go', '之前 processPayment 的问题解决了吗', ['processPayment', '问题', '解决']],
    ['en function words go, content stays', 'What did I say about my favourite programming language?', ['favourite', 'programming', 'language']],
    ['preference verbs stay', 'I prefer dark roast coffee but I like tea', ['prefer', 'dark', 'roast', 'coffee', 'like', 'tea']],
    ['relative time words go', '昨天我们去了上海', ['上海']],
    ['identifiers and paths stay whole', '帮我看看 src/order.ts 里 getUserById 为什么报 TypeError', ['src/order.ts', 'getUserById', '报', 'TypeError']],
    ['single content characters stay', '我的猫呢', ['猫']],
    ['dictionary gaps are glued back (缓|存 → 缓存)', '继续昨天的缓存实现', ['缓存', '实现']],
    ['numbers: short ones and years go, codes stay', 'set timeout 5000 on 3 hosts in 2023, error 404', ['set', 'timeout', '5000', 'hosts', 'error', '404']],
    ['possessives drop their ’s', "What is Priya's job? Harriet’s kids", ['Priya', 'job', 'Harriet', 'kids']],
    ['only stop words', '我们的这个是什么呢？', []],
    ['empty', '', []],
  ])('%s', (_name, text, expected) => {
    expect(extractKeywords(text)).toEqual(expected);
  });

  it('de-duplicates case-insensitively and keeps the first spelling', () => {
    expect(extractKeywords('Python python PYTHON 代码 代码')).toEqual(['Python', '代码']);
  });

  it('max keeps the strongest keywords in order of appearance, single characters first to go', () => {
    expect(extractKeywords('猫 喜欢 书 OrderService 咖啡', { max: 3 })).toEqual(['喜欢', 'OrderService', '咖啡']);
    expect(extractKeywords('alpha beta gamma delta', { max: 2 })).toEqual(['alpha', 'beta']);
    expect(extractKeywords('alpha beta', { max: 0 })).toEqual([]);
  });
});

describe('isStopWord', () => {
  it.each([
    ['我', true],
    ['用', true],
    ['写', true],
    ['什么', true],
    ['怎么', true],
    ['吗', true],
    ['呢', true],
    ['去了', true],
    ['The', true],
    ['do', true],
    ['what', true],
    ["don’t", true],
    ['喜欢', false],
    ['代码', false],
    ['prefer', false],
    ['Python', false],
    ['猫', false],
  ])('%s → %s', (token, expected) => {
    expect(isStopWord(token)).toBe(expected);
  });

  it('the lists are clean data: lowercase, trimmed, no duplicates', () => {
    for (const list of [EN_STOP_WORDS, ZH_STOP_WORDS]) {
      expect(new Set(list).size).toBe(list.length);
      for (const w of list) expect(w).toBe(w.trim().toLowerCase());
    }
  });
});
