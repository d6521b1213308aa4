import { describe, expect, it } from 'vitest';
import { detectEmotion } from './emotion';
import { applyUserTurn, archiveCandidates, extractContextVariables, heuristicTopic, startWorkingMemory } from './working-memory';

/** Seed 001 working memory without a model: the zh (and en) heuristics, case by case. */
describe('heuristic topic', () => {
  it.each([
    [['数据库用 SQLite，版本是 3.54'], '数据库'],
    [['截止日期是周五，来得及吗'], '截止日期'],
    [['机器学习里的梯度下降怎么理解'], '机器学习'],
    [['今天天气怎么样'], '天气'],
    [['我在重构 OrderService 的 processPayment 函数'], 'OrderService'],
    [['我想学习机器学习', '机器学习的数学基础是什么', '梯度下降怎么理解'], '机器学习'],
    [['How do I tune the connection pool?', 'The connection pool keeps timing out'], 'connection pool'],
    [['嗯', '好的'], null],
    // Issue 15: the topic keeps content words, not "By the way" or "is called".
    [['By the way, my sister is called Lena.'], 'sister Lena'],
    [['对了，我妹妹叫莉娜。'], '妹妹'],
  ] as const)('%j → %s', (texts, topic) => {
    const got = heuristicTopic(texts);
    if (topic === null) expect(got).toBeNull();
    else expect(got).toContain(topic);
  });

  it('issue 15: no discourse opener or naming verb becomes the topic', () => {
    for (const text of ['By the way, my sister is called Lena.', 'Remember that my dog is named Rex.', 'Anyway, the thing is the build is slow.']) {
      expect(heuristicTopic([text]), text).not.toMatch(/\b(?:way|called|named|remember|anyway|thing)\b/iu);
    }
  });

  it('never a lone character left over by the segmenter', () => {
    expect(heuristicTopic(['今天天气怎么样'])).not.toMatch(/(^|\s)样$/);
  });
});

describe('context variables (temporary facts of the conversation)', () => {
  it.each([
    ['我们的项目是 Engram', { 项目: 'Engram' }],
    ['数据库用 SQLite，版本是 3.54', { 数据库: 'SQLite', 版本: '3.54' }],
    ['截止日期是周五', { 截止日期: '周五' }],
    ['框架叫 SvelteKit，语言是 TypeScript', { 框架: 'SvelteKit', 语言: 'TypeScript' }],
    ['预算为 5000 元', { 预算: '5000' }],
    ['timeout = 30s and retries: 3', { timeout: '30s', retries: '3' }],
    ['今天天气怎么样', {}],
  ] as const)('%s → %j', (text, vars) => {
    expect(extractContextVariables(text)).toEqual(vars);
  });
});

describe('last emotion', () => {
  it.each([
    ['气死我了，又报错', 'anger'],
    ['受够了这个 bug', 'anger'],
    ['烦死了，还是不行', 'frustration'],
    ['我有点担心明天上线', 'anxiety'],
    ['好难过，项目被砍了', 'sadness'],
    ['谢谢你的帮助', 'gratitude'],
    ['太好了，终于跑通了', 'joy'],
    ['居然一次就过了', 'surprise'],
    ['今天周三', 'neutral'],
    ['thanks, that fixed it', 'gratitude'],
  ] as const)('%s → %s', (text, emotion) => {
    expect(detectEmotion(text)).toBe(emotion);
  });
});

describe('a turn updates the working memory (001)', () => {
  it('counts the turn, keeps earlier variables, takes the new topic and emotion; a long topic is archived', () => {
    let wm = startWorkingMemory('s', 0);
    const texts: string[] = [];
    for (const [i, text] of ['数据库用 SQLite', '版本是 3.54，担心迁移失败', '数据库迁移怎么回滚'].entries()) {
      texts.push(text);
      wm = applyUserTurn(wm, { text, now: (i + 1) * 1000, recentUserTexts: texts });
    }
    expect(wm).toMatchObject({ turnCount: 3, updatedAt: 3000, contextVariables: { 数据库: 'SQLite', 版本: '3.54' }, lastEmotion: 'neutral' });
    expect(wm.currentTopic).toContain('数据库');
    expect(archiveCandidates(wm)).toEqual(expect.arrayContaining([{ name: 'topic', value: wm.currentTopic }]));
  });
});
