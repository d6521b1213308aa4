import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentences';

describe('splitSentences', () => {
  it.each([
    ['我们决定用互斥锁。然后加重试！好吗？', ['我们决定用互斥锁。', '然后加重试！', '好吗？']],
    ['We use a mutex. Then retry! OK?', ['We use a mutex.', 'Then retry!', 'OK?']],
    ['Open src/order.ts and check v1.2 of pi 3.14.', ['Open src/order.ts and check v1.2 of pi 3.14.']],
    ['他说：“好的。”然后走了。', ['他说：“好的。”', '然后走了。']],
    ['first line\nsecond line', ['first line', 'second line']],
    ['没有标点的一句话', ['没有标点的一句话']],
    ['', []],
    // Characters outside the BMP (one code point, two UTF-16 units) stay whole and never end a sentence.
    ['😀. 𠀀。好😀！”下一句', ['😀.', '𠀀。', '好😀！”', '下一句']],
    ['a.😀 b', ['a.😀 b']],
  ])('%s', (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});
