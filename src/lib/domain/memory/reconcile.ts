import type { MemoryCandidate, MemoryRecord, MemorySource, ReconcileDecision } from './types';
import { isNoteKey, isSchemaKey, polarityOf, valueSignature } from './keys';
import { textSimilarity } from './text-norm';

/**
 * Dedupe and conflicts (seed 000 "原子记忆异步写入：可做去重/冲突检测"). Compares a candidate with the
 * nearest active memories (same key, plus the top full-text neighbours) and decides, as data:
 *
 *   same key ─┬─ retraction with nothing new (value null) ........ delete
 *             ├─ same value / same stance ........................ noop duplicate
 *             │     (update only when it raises the confidence)
 *             ├─ an inference against what the user said ........ noop weaker
 *             ├─ stance flipped (like ↔ dislike) ................. supersede
 *             ├─ preference changed ("简洁" → "详细") ............. supersede
 *             └─ fact changed ("Sam" → "Alex") ................... update
 *   other key ─┬─ retraction with nothing new .................... ignore (nothing to retract)
 *              ├─ keys not two different schema keys, and
 *              │  same value and category with related content,
 *              │  or near-identical content (edit distance or words),
 *              │  or near-identical to one clause of the memory ... noop duplicate
 *              └─ otherwise ...................................... add
 *
 * Superseding keeps the old memory (status `superseded`, in history); facts are edited in place with
 * their old value in memory_history. Both keep the change visible and undoable.
 */

/** Content at least this similar (textSimilarity) is the same memory said again. */
export const DUPLICATE_SIMILARITY = 0.85;
/** Content at least this similar, with an equal value, is the same memory under another key. */
export const RELATED_SIMILARITY = 0.5;
/** A repeated statement only updates the stored memory when it raises confidence by more than this. */
export const CONFIDENCE_STEP = 0.05;

const SOURCE_RANK: Readonly<Record<MemorySource, number>> = { inferred: 0, system: 1, user_stated: 2 };

export function reconcile(candidate: MemoryCandidate, nearest: readonly MemoryRecord[]): ReconcileDecision {
  const active = nearest.filter((m) => m.status === 'active');
  const withdrawal = candidate.retracts === true && candidate.value === null;
  const sameKey = active
    .filter((m) => m.key === candidate.key)
    .sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
  const target = sameKey[0];
  if (target) return decideSameKey(candidate, target, withdrawal);
  if (withdrawal) return { kind: 'ignore', reason: 'nothing-to-retract' };

  const duplicate = active.find((m) => isNearDuplicate(candidate, m));
  if (duplicate) return { kind: 'noop', targetId: duplicate.id, reason: 'duplicate' };
  return { kind: 'add' };
}

function decideSameKey(candidate: MemoryCandidate, target: MemoryRecord, withdrawal: boolean): ReconcileDecision {
  if (withdrawal) return { kind: 'delete', targetId: target.id };
  const candidatePolarity = candidate.polarity ?? polarityOf(candidate.value);
  const samePolarity = candidatePolarity === polarityOf(target.value);

  if (samePolarity && valueSignature(candidate.value) === valueSignature(target.value)) {
    // Saying the same thing twice changes nothing, unless it is now said with more certainty.
    if (candidate.confidence > target.confidence + CONFIDENCE_STEP) {
      return { kind: 'update', targetId: target.id, patch: { confidence: candidate.confidence } };
    }
    return { kind: 'noop', targetId: target.id, reason: 'duplicate' };
  }
  if (SOURCE_RANK[candidate.source] < SOURCE_RANK[target.source]) {
    return { kind: 'noop', targetId: target.id, reason: 'weaker' };
  }
  if (!samePolarity || candidate.category === 'preference') return { kind: 'supersede', targetId: target.id };
  return {
    kind: 'update',
    targetId: target.id,
    patch: {
      value: candidate.value,
      content: candidate.content,
      confidence: Math.max(candidate.confidence, target.confidence),
      tags: [...new Set(candidate.tags)],
    },
  };
}

/**
 * Different keys can still be the same memory when a model named it differently ("favorite_drink" vs
 * "preference.food.coffee"), or when an older memory said it as one clause of a longer sentence ("I'm
 * vegetarian and my sister is called Lena" already holds "My sister is called Lena"). Two distinct schema
 * keys never are: "我叫张伟，是一名程序员" yields a name and an occupation from the same sentence. Notes
 * (`*.note.*`) name no attribute, so only their words count.
 */
function isNearDuplicate(candidate: MemoryCandidate, memory: MemoryRecord): boolean {
  if (namesAttribute(candidate.key) && namesAttribute(memory.key)) return false;
  if (polarityOf(candidate.value) !== polarityOf(memory.value)) return false;
  const similarity = textSimilarity(candidate.content, memory.content);
  // An equal value alone is not enough (`true` for "likes_dogs" and "likes_cats"): the wording must agree too.
  const sameValue = memory.category === candidate.category && valueSignature(candidate.value) === valueSignature(memory.value);
  if (sameValue && similarity >= RELATED_SIMILARITY) return true;
  if (similarity >= DUPLICATE_SIMILARITY) return true;
  return clausesOf(memory.content).some((clause) => textSimilarity(candidate.content, clause) >= DUPLICATE_SIMILARITY);
}

function namesAttribute(key: string): boolean {
  return isSchemaKey(key) && !isNoteKey(key);
}

/** A memory's clauses, for "said before as part of a longer memory" (only when there are several). */
function clausesOf(content: string): string[] {
  const parts = content
    .split(/[,;:，；：。.!?！？]|\s+(?:and|but)\s+|而且|并且|还有/iu)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length > 1 ? parts : [];
}
