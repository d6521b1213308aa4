import { describe, expect, it } from 'vitest';
import type { RetrievalConfig } from '../../domain/recall/config';
import { createTestEngine, expectOk, type TestEngine } from '../testing';

async function remember(t: TestEngine, content: string, tags: string[] = []): Promise<string> {
  return expectOk(await t.engine.call('memory.create', { content, category: 'fact', tags })).id;
}

/** Memories of these contents, in order; their ids. */
async function rememberAll(t: TestEngine, contents: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const content of contents) ids.push(await remember(t, content));
  return ids;
}

const retrieve = async (t: TestEngine, query: string, sessionId?: string) => expectOk(await t.engine.call('memory.retrieve', { query, topN: 3, sessionId }));

/** A chat of these messages, 30 s apart; its id. */
async function chat(t: TestEngine, messages: readonly (readonly ['user' | 'assistant', string])[]): Promise<string> {
  const { id: sessionId } = expectOk(await t.engine.call('session.create', {}));
  for (const [role, content] of messages) {
    t.clock.advance(30_000);
    expectOk(await t.engine.call('message.append', { sessionId, role, content }));
  }
  return sessionId;
}

/** Two memories, one about the basketball game a chat talks about; the game's id. */
async function basketball(t: TestEngine): Promise<string> {
  const game = await remember(t, 'Kiki won the basketball final with his team');
  await remember(t, 'Kiki visited the aquarium');
  return game;
}

/** Whether the game was retrieved for "Guess!" — through the chat's earlier turns, as it holds none of the words. */
async function foundThroughDialogue(t: TestEngine, game: string, sessionId: string): Promise<boolean> {
  const res = await retrieve(t, 'Guess!', sessionId);
  const item = res.items.find((i) => i.memory.id === game);
  if (item) expect(item.score.keywordParts?.dialogue).toBeGreaterThan(0);
  return item !== undefined;
}

describe('memory.retrieve (issue 8 retrieval)', () => {
  it('scores a memory that shares more of the Chinese wording higher when character pairs count', async () => {
    const keyword = async (memoryGrams: boolean) => {
      const t = await createTestEngine({ retrieval: { memoryGrams } satisfies Partial<RetrievalConfig> });
      const panda = await remember(t, '动物园里的大熊猫在吃竹子');
      await remember(t, '宝宝睡着了');
      const res = await retrieve(t, '熊猫宝宝可爱吗');
      return res.items.find((i) => i.memory.id === panda)?.score.terms.keyword ?? 0;
    };
    expect(await keyword(true)).toBeGreaterThan(await keyword(false));
  });

  it.each([
    [true, true],
    [false, false],
  ])('weighs the user’s earlier turns of the conversation (dialogue: %s)', async (memoryDialogue, found) => {
    const t = await createTestEngine({ retrieval: { memoryDialogue } });
    const game = await basketball(t);
    const sessionId = await chat(t, [
      ['user', 'We played basketball after school today!'],
      ['assistant', 'That sounds fun, who won?'],
      ['user', 'Guess!'],
    ]);
    expect(await foundThroughDialogue(t, game, sessionId)).toBe(found);
  });

  it('keeps seed 001’s score and says which view the keyword match came from', async () => {
    const t = await createTestEngine();
    await remember(t, 'Kiki在学校晚会上唱歌，感觉非常开心。', ['活动类', '开心']);
    const res = await retrieve(t, '周五的晚会我要上台，好开心');
    const top = res.items[0];
    expect(top?.score.terms.keyword).toBe(1);
    expect(top?.score.keywordParts?.message).toBeGreaterThan(0);
    const { weighted } = top!.score;
    expect(top!.score.score).toBeCloseTo((weighted.keyword + weighted.category + weighted.recency + weighted.frequency + weighted.confidence) * top!.score.multipliers.topic, 10);
  });

  it.each([
    [true, true],
    [false, false],
  ])('weighs the chat’s first user message however long ago it was (opener: %s)', async (memoryOpener, found) => {
    const t = await createTestEngine({ retrieval: { memoryOpener } });
    const game = await basketball(t);
    // Eight user turns between the opener and the message: beyond the dialogue views' six.
    const user = ['We played basketball after school today!', ...Array.from({ length: 8 }, (_, i) => `Hmm, guess number ${i + 1}?`), 'Guess!'];
    const sessionId = await chat(t, user.flatMap((c) => [['user', c] as const, ['assistant', 'Tell me more!'] as const]));
    expect(await foundThroughDialogue(t, game, sessionId)).toBe(found);
  });

  it.each([
    [true, 0.4],
    [false, 0.25],
  ])('weighs a turn by how much it shares with any memory (view strength: %s)', async (memoryViewStrength, atLeast) => {
    const t = await createTestEngine({ retrieval: { memoryViewStrength } });
    const [concert = '', trip = ''] = await rememberAll(t, ['Kiki在学校音乐会上弹钢琴，大家都为他鼓掌。', 'Kiki期待的春游因为下雨取消了。', 'Kiki和奶奶一起包饺子。', 'Kiki在公园里放风筝。']);
    const message = '我好期待那一天！';
    const sessionId = await chat(t, [['user', '下周学校音乐会，我要上台弹钢琴！'], ['assistant', '太棒了，你练了多久？'], ['user', message]]);
    const res = await retrieve(t, message, sessionId);
    const keyword = (id: string) => res.items.find((i) => i.memory.id === id)?.score.terms.keyword ?? 0;
    // The message shares one pair (期待) with one memory; the opener shares 音乐会 and 钢琴 with another.
    expect(keyword(trip)).toBe(1);
    expect(keyword(concert)).toBeGreaterThanOrEqual(atLeast);
    if (memoryViewStrength) expect(keyword(concert)).toBeLessThan(1);
    else expect(keyword(concert)).toBeCloseTo(0.25, 10);
  });

  it.each([
    [true, 1.3],
    [false, 1],
  ])('takes the chat’s first user message as part of its topic (opener topic: %s)', async (memoryOpenerTopic, multiplier) => {
    const t = await createTestEngine({ retrieval: { memoryOpenerTopic } });
    const [gala] = await rememberAll(t, ['Kiki在夏令营的游泳比赛中得了第二名。', 'Kiki在动物园看到了长颈鹿。', 'Kiki和爸爸一起放风筝。']);
    const message = '我有点紧张，你说我能行吗？';
    const sessionId = await chat(t, [
      ['user', '下个月我要参加游泳比赛！'],
      ['assistant', '真厉害！你准备得怎么样？'],
      ['user', '教练说我的转身还要练。'],
      ['assistant', '多练几次就好了。'],
      ['user', message],
    ]);
    const res = await retrieve(t, message, sessionId);
    // The current topic comes from the latest turns, which never say 游泳 again.
    expect(res.topicKeywords).not.toContain('游泳');
    const item = res.items.find((i) => i.memory.id === gala);
    expect(item?.score.multipliers.topic).toBe(multiplier);
    expect(item?.score.topicWords?.some((w) => w.opener && '游泳比赛'.includes(w.word)) ?? false).toBe(memoryOpenerTopic);
  });
});

