import { describe, expect, it } from 'vitest';
import { categoryExpansions, kindTerms, MAX_KINDS, nounBases, parseHyponyms } from './categories';

// An invented table of the committed one's shape (hyponyms-data.ts): keys sharing a list, a tab, the kinds.
const table = parseHyponyms(
  ['board game\tchess checkers backgammon', 'instrument,musical instrument\tpiano violin drum', 'pet\thamster', 'city\tcapital', 'vehicle\tcar truck bicycle', 'model\treplica mockup'].join('\n'),
);

describe('parseHyponyms', () => {
  it('gives every key of a line the same kinds', () => {
    expect(table.get('instrument')).toEqual(['piano', 'violin', 'drum']);
    expect(table.get('musical instrument')).toBe(table.get('instrument'));
    expect(parseHyponyms('no tab here\n\tno key')).toEqual(new Map());
  });
});

describe('nounBases', () => {
  it('offers the word and its singulars', () => {
    expect(nounBases('Cities').slice(0, 2)).toEqual(['cities', 'city']);
    expect(nounBases('games')).toContain('game');
    expect(nounBases('glass')).toEqual(['glass']);
  });
});

describe('categoryExpansions', () => {
  const expand = (question: string, keywords: string[]) => categoryExpansions(keywords, question, table).map((e) => [e.category, e.keywords]);

  it('expands a plural category the question gathers over, and a compound as one category', () => {
    expect(expand('What board games has Ria played?', ['board', 'games', 'played'])).toEqual([['board game', ['board', 'games']]]);
    expect(expand('Which instruments do I practise?', ['instruments', 'practise'])).toEqual([['instrument', ['instruments']]]);
  });

  it('expands a word after "kind of" / "type of", and any category of a counting question', () => {
    expect(expand('What kind of instrument did Ola buy?', ['kind', 'instrument', 'buy'])).toEqual([['instrument', ['instrument']]]);
    expect(expand('How many pet hamsters… how many times did I take my pet to the vet?', ['pet', 'vet'])).toEqual([['pet', ['pet']]]);
  });

  it('never expands the gathering frame itself ("what kinds of", "the total number of")', () => {
    const frame = parseHyponyms('kind\tsort type\nnumber\tinteger\ninstrument\tpiano');
    expect(categoryExpansions(['kinds', 'instruments'], 'What kinds of instruments?', frame).map((e) => e.category)).toEqual(['instrument']);
    expect(categoryExpansions(['total', 'number', 'instruments'], 'The total number of instruments I own?', frame).map((e) => e.category)).toEqual(['instrument']);
  });

  it('leaves a singular noun of a question that does not gather alone', () => {
    expect(expand('Where did I park the vehicle?', ['park', 'vehicle'])).toEqual([]);
    // "board" alone is no category of the table, and two words that are not adjacent are no compound.
    expect(expand('The board approved new games?', ['board', 'approved', 'games'])).toEqual([]);
  });
});

describe('kindTerms', () => {
  it('takes kinds in turn from each category, without the question’s own words, at most MAX_KINDS', () => {
    const e = categoryExpansions(['board', 'games', 'instruments'], 'board games and instruments', table);
    expect(kindTerms(e, ['board', 'games', 'instruments', 'violin'])).toEqual(['chess', 'piano', 'checkers', 'backgammon', 'drum']);
    const many = [{ category: 'x', keywords: ['xs'], kinds: Array.from({ length: 50 }, (_, i) => `kind${i}`) }];
    expect(kindTerms(many, [])).toHaveLength(MAX_KINDS);
  });
});
