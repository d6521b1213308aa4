import type { MemoryRecord, ScoreExplanation } from '../../domain/memory';
import type { ProfileChange } from '../../domain/memory';
import type { RejectedItem } from '../../domain/memory/memory-update';
import type { MemoryHistoryEntry } from '../store/memory-rows';
import type { ProfileState, ProfileVersion } from '../store/profile-repo';

/** Result shapes of the memory calls (issue 4), named by the protocol contract. */
export type { MemoryHistoryEntry, ProfileState, ProfileVersion };

/** Where a memory came from: the conversation and the user message it was learned from. */
export interface MemoryOrigin {
  sessionId: string;
  messageId: number | null;
  /** The conversation's title, when it still exists (deleting a conversation keeps what was learned). */
  sessionTitle: string | null;
  messageExists: boolean;
}

export interface MemoryDetail {
  memory: MemoryRecord;
  /** Newest first. */
  history: MemoryHistoryEntry[];
  origin: MemoryOrigin | null;
  /** The memory that replaced this one, when it was superseded by another. */
  supersededBy: MemoryRecord | null;
  /** Older memories this one replaced. */
  supersedes: MemoryRecord[];
}

/** How a candidate's keyword_score was found: FTS5 bm25, the LIKE fallback, only by category, or only by meaning (issue 18). */
export type RetrievalVia = 'fts' | 'like' | 'category' | 'semantic';

export interface RetrievedMemory {
  memory: MemoryRecord;
  score: ScoreExplanation;
  via: RetrievalVia;
}

export interface RetrievalResult {
  items: RetrievedMemory[];
  /** 001 stage 1: the message's keywords (stop words removed). */
  keywords: string[];
  /** 001 "Working memory context boost": the session's current_topic and its keywords. */
  topic: string | null;
  topicKeywords: string[];
  preferenceQuery: boolean;
  /** The topN used (the caller's, or the setting for the purpose). */
  topN: number;
  /** True when FTS5 failed and LIKE stood in (001 "Fallback to LIKE matching"). */
  ftsFailed: boolean;
  /** Meaning-based recall (issue 18): on, off, or degraded to lexical with the reason (absent: not asked). */
  semantic?: { state: 'on' | 'off' | 'degraded'; model: string | null; reason: string | null; coverage: number | null };
}

export type ExtractDecisionKind = 'add' | 'update' | 'supersede' | 'delete' | 'noop' | 'ignore';

export interface ExtractDecision {
  kind: ExtractDecisionKind;
  /** The memory written or kept: the new one for add/supersede, the target for update/delete/noop. */
  memoryId?: string;
  /** For supersede: the memory that was replaced. */
  replacedId?: string;
  key: string;
  /** What is remembered, in the user's words. */
  content: string;
  /** Why nothing was written (`duplicate`, `weaker`, `nothing-to-retract`, `value-too-large`). */
  reason?: string;
}

/** How a memory change touched the profile document (a new version, undoable with profile.undo). */
export interface ProfileEffect {
  profileChanged: boolean;
  profileChanges: ProfileChange[];
  /** The profile version after the change (for profile.undo's notice). */
  profileVersion: number;
}

export interface ExtractResult extends ProfileEffect {
  decisions: ExtractDecision[];
  /** Who proposed the candidates: the model, the rules, or the rules because the model's answer was unusable. */
  extractor: 'model' | 'rules' | 'rules-fallback';
  /** Model items not used (invalid, or not supported by the user's words): index and fields, never values. */
  invalid: RejectedItem[];
  evicted: number;
}

/** An undo, and what it did to the profile: a memory that goes takes its profile line with it. */
export type UndoResult = (
  | { kind: 'deleted'; memoryId: string; restored: string[] }
  | { kind: 'restored'; memoryId: string; memory: MemoryRecord; alsoChanged: string[] }
  | { kind: 'nothing'; memoryId: string }
) &
  ProfileEffect;

export type DeleteResult = { deleted: true; id: string } & ProfileEffect;

export interface MemorySearchHit {
  memory: MemoryRecord;
  keywordScore: number;
  via: 'fts' | 'like';
}

export interface MemorySearchResult {
  items: MemorySearchHit[];
  keywords: string[];
}

export interface EvictionReport {
  evicted: string[];
  threshold: number | null;
  active: number;
}

export interface ClearReport extends ProfileEffect {
  memoriesDeleted: number;
  historyDeleted: number;
  /** With `includeProfile`: every profile version went. Otherwise only the lines the memories wrote. */
  profileVersionsDeleted: number;
}
