import { topicHaystack } from './score';
import { normaliseText } from './text-norm';
import type { MemoryRecord } from './types';

/**
 * Seed 001's ×1.3 "Working memory context boost" through the topic words that single memories out (issue 8,
 * round 2). The heuristic topic of a chat is its recurring words (domain/conversation/working-memory.ts); in a
 * child's chat those are often words most memories hold (喜欢, 开心, 很好) — a boost every candidate gets ranks
 * nothing, and one most candidates get buries the rest under the ×1.3. A topic word counts only when at most
 * `share` of the candidates (plus one) hold it; the boost then marks the memories about the topic, as 001 means it.
 */
export function focusedTopicKeywords(
  topicKeywords: readonly string[],
  candidates: readonly Pick<MemoryRecord, 'content' | 'key' | 'tags'>[],
  share: number,
): string[] {
  if (candidates.length === 0) return [...topicKeywords];
  // One more than the share: with a handful of candidates, the one memory that holds the topic still gets it.
  const most = share * candidates.length + 1;
  // Each candidate's text normalised once, not once per word (a chat's opener adds up to 16 words, memoryOpenerTopic).
  const haystacks = candidates.map(topicHaystack);
  return topicKeywords.filter((k) => {
    const word = normaliseText(k);
    if (word === '') return true; // as before: such a word matches nothing, so it boosts nothing either
    let holding = 0;
    for (const h of haystacks) if (h.includes(word) && ++holding > most) return false;
    return true;
  });
}
