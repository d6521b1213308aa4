import { describe, expect, it } from 'vitest';
import { nameCandidates, recencyCue, roleCue, withoutTimeWords } from './query-cues';

describe('roleCue', () => {
  it.each([
    ['What degree did I graduate with?', 'user'],
    ['How long have I had my dog, Miso?', 'user'],
    ['我的猫叫什么名字', 'user'],
    ['What was the website you recommended for guided imagery?', 'assistant'],
    ['Can you remind me what you suggested for the trip?', 'assistant'],
    ['你上次推荐的那本书叫什么', 'assistant'],
    ['What did Priya study?', null],
    ['我们上次讨论的缓存方案', null],
    ['OrderService 的重试逻辑', null],
  ] as const)('%s → %s', (query, want) => {
    expect(roleCue(query)).toBe(want);
  });
});

describe('recencyCue', () => {
  it.each([
    ['What kind of bike frame am I currently building?', true],
    ['How many Instagram followers do I have now?', true],
    ['What is my latest project?', true],
    ['我最近在读什么书', true],
    ['目前用的是哪个数据库', true],
    ['What did Priya study?', false],
    ['去年圣诞节我们去了哪里', false],
    ['之前讨论的 OrderService 问题', false],
  ] as const)('%s → %s', (query, want) => {
    expect(recencyCue(query)).toBe(want);
  });
});

describe('nameCandidates', () => {
  it.each([
    ['What did Priya study?', ['Priya']],
    ["What is Harriet's reason for taking up rowing?", ['Harriet']],
    ['How long have Bea and her partner lived together?', ['Bea']],
    ['When did Ned and Vera meet?', ['Ned', 'Vera']],
    ['How often do I visit my dentist, Dr. Okafor?', ['Okafor']],
    ['What did we do in May?', []],
    ['What is processPayment doing?', []],
    ['我和小明去了哪里', []],
  ])('%s → %j', (query, want) => {
    expect(nameCandidates(query)).toEqual(want);
  });
});

describe('withoutTimeWords', () => {
  it.each([
    [['gardening', 'activity', 'two'], ['two weeks ago'], ['gardening', 'activity']],
    [['bikes', 'service', 'March'], ['in March'], ['bikes', 'service']],
    [['缓存', '方案'], ['去年圣诞节'], ['缓存', '方案']],
    [['Redis', 'cache'], [], ['Redis', 'cache']],
  ] as const)('%j without the words of %j → %j', (keywords, expressions, want) => {
    expect(withoutTimeWords(keywords, expressions)).toEqual(want);
  });
});
