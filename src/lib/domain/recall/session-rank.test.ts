import { describe, expect, it } from 'vitest';
import { rankConversations } from './session-rank';

// The turn ranking of one question, best first: conversation "lucky" has the single best turn, "steady" three good
// ones right behind it.
const turns = [
  { id: 1, conversationId: 'lucky' },
  { id: 2, conversationId: 'steady' },
  { id: 3, conversationId: 'steady' },
  { id: 4, conversationId: 'other' },
  { id: 5, conversationId: 'steady' },
];
const base = { turns, documents: new Map<string, number>(), semanticWeight: 0, documentWeight: 0, k: 60, limit: 5 };

describe('rankConversations (issue 18: which conversation was it)', () => {
  it('orders conversations by the place of their best turn, each listed once with that turn (its repeats take no slot)', () => {
    const ranked = rankConversations(base);
    expect(ranked.map((c) => c.conversationId)).toEqual(['lucky', 'steady', 'other']);
    expect(ranked.map((c) => c.bestTurnId)).toEqual([1, 2, 4]);
    expect(ranked[0]?.relevance).toBe(1);
  });

  it('fuses the document ranking when it has a weight, and keeps the limit', () => {
    const documents = new Map([['other', 12], ['steady', 3]]);
    const ranked = rankConversations({ ...base, documents, documentWeight: 1, limit: 2 });
    // other: 1/(60+1) + 1/(60+3) > steady: 1/(60+2) + 1/(60+2) > lucky: 1/(60+1) (no document)
    expect(ranked.map((c) => c.conversationId)).toEqual(['other', 'steady']);
    expect(ranked.map((c) => [c.documentRank, c.turnRank])).toEqual([[1, 3], [2, 2]]);
  });

  it('lets a conversation no turn matched in by meaning, behind an equal turn rank', () => {
    const semantic = new Map([['far', 0.9]]);
    const ranked = rankConversations({ ...base, semantic, semanticWeight: 1 });
    // far: 1/(60+1) by meaning ties lucky's 1/(60+1) by its turn; the tie goes to the turn ranking.
    expect(ranked.map((c) => c.conversationId)).toEqual(['lucky', 'far', 'steady', 'other']);
    expect(ranked.find((c) => c.conversationId === 'far')?.turnRank).toBeNull();
    expect(rankConversations({ ...base, semantic, semanticWeight: 0 }).map((c) => c.conversationId)).not.toContain('far');
  });
});
