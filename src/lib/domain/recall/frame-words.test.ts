import { describe, expect, it } from 'vitest';
import { isFrameWord } from './frame-words';

describe('isFrameWord', () => {
  it.each([
    ['tips', true],
    ['Recommendations', true],
    ['thinking', true],
    ['currently', true],
    ['推荐', true],
    ['interests', false], // a topic ("What are Harriet's interests?"), unlike "interested"
    ['sourdough', false],
    ['pottery', false],
    ['咖啡', false],
  ])('%s → %s', (word, want) => {
    expect(isFrameWord(word)).toBe(want);
  });
});
