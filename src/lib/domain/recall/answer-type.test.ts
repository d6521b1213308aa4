import { describe, expect, it } from 'vitest';
import { answerType, holdsAnswerType } from './answer-type';

describe('answerType', () => {
  it.each([
    ['How long have I had my dog, Miso?', 'duration'],
    ['我学钢琴多久了？', 'duration'],
    ['How many concerts have I been to this year?', 'number'],
    ['我养了几只猫？', 'number'],
    ['When did Priya go to the chess club?', 'time'],
    ['我们什么时候去的上海？', 'time'],
    ['Where did Priya move from?', 'place'],
    ['我们上次在哪里吃的饭？', 'place'],
    ['Who performed at the concert?', 'person'],
    ['是谁推荐的这本书？', 'person'],
    ['What did Priya study?', null],
    ['推荐一本书吧', null],
  ] as const)('%s → %s', (q, want) => {
    expect(answerType(q)).toBe(want);
  });
});

describe('holdsAnswerType', () => {
  it.each([
    ["I've had Miso for about 8 months now.", 'duration', true],
    ['我学钢琴已经三年了。', 'duration', true],
    ['I love my cat so much.', 'duration', false],
    ['I planted 5 tomato plants.', 'number', true],
    ['我们买了两本书。', 'number', true],
    ['I went to the chess club yesterday.', 'time', true],
    ['上周六我们去了海边。', 'time', true],
    ['It was lovely and so calm.', 'time', false],
    ['I moved from Portugal three years ago.', 'place', true],
    ['我们在北京市玩了一周。', 'place', true],
    ['It was Leo Hart, he plays so well!', 'person', true],
    ['是我的朋友推荐的。', 'person', true],
  ] as const)('%s (%s) → %s', (text, type, want) => {
    expect(holdsAnswerType(text, type)).toBe(want);
  });
});
