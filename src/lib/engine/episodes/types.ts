/**
 * What the episode and writing-memory calls return (contract section "writing memory that learns").
 * Field names are seed 003's (skillUsed, inputContext, chapterId, …), so the record reads like the seed.
 */
import type { SceneType } from '../../domain/episodes/scene-type';
import type { ImplicitSignal } from '../../domain/episodes/signals';
import type { EntryKind, EvictedEntry } from '../../domain/writing/working-memory';

export type EpisodeKind = 'skill-run' | 'session' | 'verdict';

/** 003 Episode: trigger context, AI output, user feedback, metadata. */
export interface Episode {
  id: string;
  kind: EpisodeKind;
  runId: string | null;
  skillUsed: string;
  /** 003 inputContext: a summary of the passage the skill ran on. */
  inputContext: string;
  projectId: string | null;
  chapterId: string | null;
  sceneType: SceneType;
  /** Who decided the scene type. */
  sceneSource: 'heuristic' | 'model';
  candidates: string[];
  /** -1: every candidate rejected. */
  selectedIndex: number;
  finalText: string | null;
  explicit: string | null;
  implicit: ImplicitSignal;
  /** The signal before an undo made it the delayed negative (the acceptance is not erased). */
  firstSignal: ImplicitSignal | null;
  /** Signed weight −1..1 distillation counts. */
  valence: number;
  editDistance: number | null;
  importance: number;
  recallCount: number;
  lastRecalledAt: number | null;
  compressed: boolean;
  summary: string | null;
  /** 003 decay score as the last lifecycle pass (or recall) stored it; recall computes it afresh. */
  decay: number;
  /** "Keep this" from the forgetting ledger: exempt from decay, never compressed or deleted by policy. */
  pinned: boolean;
  undoneAt: number | null;
  uses: number;
  createdAt: number;
  updatedAt: number;
}

/** Why an episode was recalled (003 "情景记忆召回": scene type + text similarity), term by term. */
export interface EpisodeRecallWhy {
  sceneMatch: boolean;
  /** 0..1, from bm25 over the episode's text (0 when nothing matched or the index failed). */
  similarity: number;
  matchedTerms: string[];
  /** Days since the episode. */
  ageDays: number;
  importance: number;
  /** 003 decay score now: an active episode counts fully, a decaying one by its score (below 0.3: not recalled). */
  decay: number;
  score: number;
}

export interface RecalledEpisode {
  episode: Episode;
  why: EpisodeRecallWhy;
}

export interface EpisodeQueryResult {
  items: RecalledEpisode[];
  /** The text index could not be used: time + scene type only (003 degradation). */
  degraded: boolean;
}

export interface EpisodeRecordResult {
  episode: Episode;
  /** The 004 feedback event written with it. */
  feedbackEventId: string | null;
  /** Distillation is due now (003 triggers: 50 new episodes, a contradiction), null otherwise. */
  distillDue: 'batch' | 'conflict' | null;
  /** preferences.learning is off: the episode is kept, distillation is frozen. */
  learningPaused: boolean;
}

/** The working memory of a writing session as the inspector shows it (003 Layer 1). */
export interface WritingMemoryView {
  documentId: string;
  projectId: string | null;
  sceneType: SceneType;
  budget: number;
  tokens: number;
  entries: { id: string; kind: EntryKind; tokens: number; importance: number; pinned: boolean; uses: number; preview: string }[];
  evicted: EvictedEntry[];
  signals: { kind: 'scene-skill' | 'instruction'; sceneType: SceneType; skillId: string; uses: number; archivable: boolean }[];
  startedAt: number;
  updatedAt: number;
}

/** run.learning: what a skill run's context took from the writing memory. */
export interface RunLearning {
  runId: string;
  sceneType: SceneType;
  workingMemory: WritingMemoryView | null;
  episodes: { id: string; why: EpisodeRecallWhy; kept: boolean }[];
}

export interface WritingSessionEnd {
  /** The sessions that ended and the episodes their signals were archived into. */
  ended: string[];
  archived: string[];
  dropped: number;
}
