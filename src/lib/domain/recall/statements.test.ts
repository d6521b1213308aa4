import { describe, expect, it } from 'vitest';
import { isFirstPerson, statementText } from './statements';

describe('isFirstPerson', () => {
  it.each([
    ["I've had Miso for about 8 months.", true],
    ['My road bike has been running great.', true],
    ['We went camping with the kids.', true],
    ['我上周去了上海。', true],
    ['Miso loves her toys.', false],
    ['Is that your fourth try?', false],
    ['Mimi is an island in the sea.', false], // "i" inside words is no pronoun
    ['Please help me write the parser.', false], // a request: "me" is its object
    ['帮我写 processPayment 的实现', false],
    ['告诉我你的想法。', false],
    ['我们上周末去露营了。', true],
  ])('%s → %s', (sentence, want) => {
    expect(isFirstPerson(sentence)).toBe(want);
  });
});

describe('statementText', () => {
  it.each([
    ['keeps first-person statements', "I've had Miso for 8 months. She loves toys.", "I've had Miso for 8 months."],
    ['drops the writer’s questions', 'Can you suggest toys for my Miso? I adopted her in May.', 'I adopted her in May.'],
    ['keeps every statement, in order', 'I got a bike. It is red.\nMy sister rides it!', 'I got a bike.\nMy sister rides it!'],
    ['is empty without any', 'What a lovely photo! Where was it taken?', ''],
    ['reads Chinese sentence ends', '我买了一辆自行车。你喜欢吗？', '我买了一辆自行车。'],
  ])('%s', (_, text, want) => {
    expect(statementText(text)).toBe(want);
  });
});
