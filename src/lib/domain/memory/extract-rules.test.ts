import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractCandidates, MAX_EXTRACT_CHARS } from './extract-rules';
import { isSchemaKey } from './keys';

describe('extractCandidates: the whole message', () => {
  it('000 原子记忆异步写入: takes several memories from one message, each in its own language', () => {
    const got = extractCandidates('我叫小明。From now on, please keep your answers short.\n我讨厌香菜');
    expect(got.map((c) => [c.key, c.language])).toEqual([
      ['fact.name', 'zh'],
      ['preference.reply.length', 'en'],
      ['preference.food.cilantro', 'zh'],
    ]);
  });

  it('ignores transcript lines and quotes pasted from a chat, keeping the user’s own line', () => {
    const got = extractCandidates('Assistant: 你好，我叫小助手\n用户：我叫李四\n> I live in Paris\n我叫张伟');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ key: 'fact.name', value: { name: '张伟' }, content: '我叫张伟。' });
  });

  it('keeps what was said last when one message states the same key twice', () => {
    const got = extractCandidates('I live in Paris. Actually, I live in Berlin.');
    expect(got).toHaveLength(1);
    expect(got[0]?.value).toEqual({ location: 'Berlin' });
  });

  it('000 one fact each: a sentence of several statements gives one complete sentence per memory', () => {
    const got = extractCandidates('我叫张伟，是一名程序员，在腾讯工作，平时住在杭州。');
    expect(got.map((c) => [c.key, c.content])).toEqual([
      ['fact.name', '我叫张伟。'],
      ['fact.occupation', '我是一名程序员。'],
      ['fact.employer', '我在腾讯工作。'],
      ['fact.location', '我平时住在杭州。'],
    ]);
    const en = extractCandidates("By the way, I'm vegetarian and my sister is called Lena.");
    expect(en.map((c) => [c.key, c.content])).toEqual([
      ['fact.diet', "I'm vegetarian."],
      ['fact.relation.sister', 'My sister is called Lena.'],
    ]);
    expect(extractCandidates('I love hiking and swimming').map((c) => c.content)).toEqual(['I love hiking.', 'I love swimming.']);
  });

  it('a sentence saying one thing keeps its whole wording, without its opening words', () => {
    expect(extractCandidates('Btw, I really enjoy long walks, especially in autumn').map((c) => c.content)).toEqual([
      'I really enjoy long walks, especially in autumn.',
    ]);
  });

  it('cuts content to memory.atomic_content_max_length', () => {
    const got = extractCandidates('我叫张伟，是一名程序员，平时住在杭州。', { maxContentLength: 6 });
    expect(got.map((c) => c.content)).toEqual(['我叫张伟。', '我是一名程…', '我平时住在…']);
  });

  it('gives profile lines for facts and reply style, not for likes (000 更新用户画像)', () => {
    const [name] = extractCandidates('叫我小明');
    expect(name?.profile).toEqual([{ section: 'background', key: 'fact.name', text: '称呼：小明' }]);
    const [language] = extractCandidates('From now on, please answer in Chinese');
    expect(language?.profile).toEqual([{ section: 'language', key: 'preference.reply.language', text: 'Reply language: Chinese' }]);
    const [coffee] = extractCandidates('I like coffee');
    expect(coffee?.profile).toBeUndefined();
  });

  it('a withdrawal asks the profile to drop the line', () => {
    const [left] = extractCandidates('我已经不在腾讯工作了');
    expect(left?.profile).toEqual([{ section: 'background', key: 'fact.employer', text: '工作单位', remove: true }]);
  });

  it('treats text over the limit as pasted material, however it ends', () => {
    const statement = 'I like coffee.';
    expect(extractCandidates(statement)).toHaveLength(1);
    const padding = 'x'.repeat(MAX_EXTRACT_CHARS - statement.length);
    expect(extractCandidates(`${padding} ${statement}`)).toEqual([]);
  });

  it('never throws and only yields well-formed candidates, whatever the input', () => {
    const pieces = fc.constantFrom('我喜欢', '咖啡', '叫我', '小明', 'I like ', 'coffee', 'call me ', 'Sam', '，', '。', '?', ' and ', '以后请', '用中文回答', '"', '`', '\n', '不');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 12 }).map((p) => p.join(''))), (text) => {
        for (const c of extractCandidates(text, { maxContentLength: 40 })) {
          expect(isSchemaKey(c.key)).toBe(true);
          expect(c.source).toBe('user_stated');
          expect(c.confidence).toBeGreaterThanOrEqual(0.9);
          expect(c.confidence).toBeLessThanOrEqual(1);
          expect(Array.from(c.content).length).toBeLessThanOrEqual(40);
        }
      }),
      { numRuns: 300 },
    );
  });
});
