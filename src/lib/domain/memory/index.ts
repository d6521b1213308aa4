/**
 * Long-term memory domain (seeds 000 and 001): pure functions, no SQL, no DOM.
 *
 *   user message ─▶ extractCandidates (rules)  ┐
 *   model JSON ───▶ candidatesFromModel (zod)  ┴▶ MemoryCandidate ─▶ reconcile(candidate, nearest)
 *                                                   │ .profile hints ─▶ applyProfileHints(profile text)
 *   retrieval: normaliseBm25 / likeKeywordScore ─▶ scoreMemory (explained) ─▶ rankScored
 */
export type {
  MemoryCandidate,
  MemoryCategory,
  MemoryRecord,
  MemorySource,
  ProfileHint,
  ProfileSection,
  ReconcileDecision,
} from './types';
export { MEMORY_CATEGORIES, MEMORY_SOURCES } from './types';
export { extractCandidates, MAX_EXTRACT_CHARS, MAX_SENTENCE_CHARS } from './extract-rules';
export {
  candidatesFromModel,
  memoryUpdateItemSchema,
  memoryUpdateSchema,
  parseModelMemoryUpdates,
  USER_STATED_MIN_CONFIDENCE,
  type MemoryUpdateItem,
  type ModelUpdateParse,
} from './memory-update';
export { reconcile, DUPLICATE_SIMILARITY } from './reconcile';
export { isSchemaKey, isSlotKey, likeKey, normaliseModelKey, polarityOf, SLOTS } from './keys';
export { CATEGORY_BOOST_BASE, MAX_MEMORY_SCORE, MEMORY_SCORE_WEIGHTS } from './weights';
export {
  isPreferenceQuery,
  likeKeywordScore,
  normaliseBm25,
  rankScored,
  relatesToTopic,
  scoreMemory,
  type ScoreExplanation,
  type ScoreInput,
  type ScoreNote,
} from './score';
export {
  applyProfileHints,
  emptyProfile,
  parseProfile,
  renderProfile,
  syncProfileHints,
  type ProfileChange,
  type ProfileDocument,
  type ProfileLocale,
} from './profile';
export { classifyProfileLine, profileHintsFor } from './profile-slots';
