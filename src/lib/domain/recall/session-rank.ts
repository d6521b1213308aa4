/**
 * "Which conversation was it" as a ranking of its own (issue 18). Counting conversations among the top turns lets a
 * conversation's summary and its repeated turns take the slots of other conversations (held-out LongMemEval: 0.816
 * shown vs 0.884 in the top 50). Here a conversation is ranked twice and the two rankings are fused:
 *
 *   its document   — what its user turns and summaries say (bm25 summed over them, the engine's `sessionDocuments`)
 *   its best turn  — the place of its first turn in the turn ranking, among distinct conversations
 *   (its meaning   — the best cosine of its turns to the question, when an embedding model is configured)
 *
 *   fused = Σ weight / (k + rank)   (reciprocal-rank fusion, fusion.ts), best first; ties: the better turn rank.
 */
import { fuseRanks, ranksOf } from './fusion';

export interface ConversationRank {
  conversationId: string;
  relevance: number;
  documentRank: number | null;
  turnRank: number | null;
  bestTurnId: number | null;
}

export function rankConversations(input: {
  /** The turn ranking, best first (the head is enough: a conversation further down has its document). */
  turns: readonly { id: number; conversationId: string }[];
  /** conversation → its document's score (higher is better). */
  documents: ReadonlyMap<string, number>;
  /** conversation → the best cosine of its turns (absent: no embedding lane). */
  semantic?: ReadonlyMap<string, number>;
  semanticWeight: number;
  documentWeight?: number;
  turnWeight?: number;
  k: number;
  limit: number;
}): ConversationRank[] {
  const turnRanks = new Map<string, number>();
  const bestTurn = new Map<string, number>();
  for (const t of input.turns) {
    if (turnRanks.has(t.conversationId)) continue;
    turnRanks.set(t.conversationId, turnRanks.size + 1);
    bestTurn.set(t.conversationId, t.id);
  }
  const documentRanks = ranksOf(input.documents);
  const fused = fuseRanks(
    [
      { ranks: documentRanks, weight: input.documentWeight ?? 1 },
      { ranks: turnRanks, weight: input.turnWeight ?? 1 },
      { ranks: input.semantic ? ranksOf(input.semantic) : new Map<string, number>(), weight: input.semanticWeight },
    ],
    input.k,
  );
  let best = 0;
  for (const s of fused.values()) best = Math.max(best, s);
  return [...fused]
    .sort((a, b) => b[1] - a[1] || (turnRanks.get(a[0]) ?? Infinity) - (turnRanks.get(b[0]) ?? Infinity))
    .slice(0, input.limit)
    .map(([conversationId, score]) => ({
      conversationId,
      relevance: best > 0 ? score / best : 0,
      documentRank: documentRanks.get(conversationId) ?? null,
      turnRank: turnRanks.get(conversationId) ?? null,
      bestTurnId: bestTurn.get(conversationId) ?? null,
    }));
}
