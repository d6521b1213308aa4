import { describe, expect, it } from 'vitest';
import { bigramTerms, englishTerms } from './tokenize';

describe('baseline terms', () => {
  it('English: lower-cased words without NLTK stop words', () => {
    expect(englishTerms('When did Priya go to the chess club meetup?')).toEqual(['priya', 'go', 'chess', 'club', 'meetup']);
    expect(englishTerms("Harriet's kids don't paint")).toEqual(["harriet's", 'kids', 'paint']);
  });

  it('Chinese: overlapping character bigrams; a lone Han character stays a term', () => {
    expect(bigramTerms('圣诞节晚会')).toEqual(['圣诞', '诞节', '节晚', '晚会']);
    expect(bigramTerms('猫，很可爱')).toEqual(['猫', '很可', '可爱']);
  });

  it('mixed runs split Han from digits and Latin', () => {
    expect(bigramTerms('3月去了Python课')).toEqual(['3', '月去', '去了', 'python', '课']);
  });
});
