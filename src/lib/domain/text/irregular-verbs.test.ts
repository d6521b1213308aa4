import { describe, expect, it } from 'vitest';
import { verbForms } from './irregular-verbs';

describe('verbForms', () => {
  it.each([
    ['feel', ['felt']],
    ['felt', ['feel']],
    ['Write', ['wrote', 'written']],
    ['written', ['write', 'wrote']],
    ['buy', ['bought']],
    ['win', ['won']],
    ['read', []], // one spelling for every form
    ['research', []], // regular: the index's porter stemmer joins its forms
    ['rose', []], // a flower as often as a verb: left out
    ['went', []], // go/went are stop words, never searched
  ])('%s → %j', (word, want) => {
    expect(verbForms(word).sort()).toEqual([...want].sort());
  });
});
