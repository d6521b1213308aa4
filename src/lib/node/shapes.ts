/**
 * Node-only. The engine's camelCase results → the seeds' snake_case JSON: seed 002's API contract for
 * the CLI (memory_store, memory_recall, memory_summarize, memory_cleanup) and seed 001's field names for
 * the REST endpoints. Times are ISO 8601 strings (002: `"stored_at": "2026-01-17T10:30:00Z"`).
 * Explicit per shape, never a generic key rewrite: a memory's `value` is the user's JSON and keeps its keys.
 */
import type { TableCounts } from '../domain/backup/diff';
import type { WorkingMemory } from '../domain/conversation/types';
import type { MemoryRecord } from '../domain/memory';
import type { ConversationStoreResult, SummarizeResult } from '../engine/conversation/conversation-service';
import type { ImportResult } from '../engine/backup';
import type { ClearReport, DeleteResult, MemoryDetail, MemoryHistoryEntry } from '../engine/memory/types';
import type { RecallResponse } from '../engine/recall/types';
import type { CleanupReport } from '../engine/store/cleanup';
import type { ReindexReport } from '../engine/store/fts-reindex';

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** 002 memory_store */
export const storeShape = (r: ConversationStoreResult) => ({
  turn_id: r.turnId,
  conversation_id: r.conversationId,
  symbols_extracted: r.symbolsExtracted,
  stored_at: iso(r.storedAt),
});

/** 002 memory_recall: a turn carries role + content, a summary carries summary and a null turn_id. */
export const recallShape = (r: RecallResponse) => ({
  results: r.results.map((h) =>
    h.isSummary
      ? { conversation_id: h.conversationId, turn_id: null, summary: h.summary, relevance: round(h.relevance, 4), created_at: iso(h.createdAt), is_summary: true }
      : {
          conversation_id: h.conversationId,
          turn_id: h.turnId,
          role: h.role,
          content: h.content,
          relevance: round(h.relevance, 4),
          created_at: iso(h.createdAt),
          is_summary: false,
        },
  ),
  total_searched: r.totalSearched,
  latency_ms: round(r.latencyMs, 1),
});

/** 002 memory_summarize */
export const summarizeShape = (r: SummarizeResult) => ({
  summary_id: r.summaryId,
  conversation_id: r.conversationId,
  turns_summarized: r.turnsSummarized,
  summary: r.summary,
  key_symbols: r.keySymbols,
  key_decisions: r.keyDecisions,
});

/** 002 memory_cleanup: exactly the contract's four counts. */
export const cleanupShape = (r: CleanupReport) => ({
  conversations_deleted: r.conversations_deleted,
  turns_deleted: r.turns_deleted,
  summaries_deleted: r.summaries_deleted,
  space_freed_kb: r.space_freed_kb,
});

/** 002 memory_reindex (the seed names the command, not its output). */
export const reindexShape = (r: ReindexReport) => ({
  turns_reindexed: r.messages,
  summaries_reindexed: r.summaries,
  memories_reindexed: r.memories,
  segmenter_version: r.segmenterVersion,
  latency_ms: round(r.ms, 1),
});

const countsShape = (c: TableCounts) => ({ incoming: c.incoming, added: c.add, updated: c.update, skipped: c.skip, conflicts: c.conflict, removed: c.removed });

export const importShape = (r: ImportResult, files: TableCounts) => ({
  mode: r.mode,
  tables: Object.fromEntries(Object.entries(r.tables).map(([name, c]) => [name, countsShape(c)])),
  conflicts_total: r.conflictsTotal,
  files: countsShape(files),
});

/** 001 long-term memory entry: its named fields first, then what the app adds (content, tags, scope …). */
export const memoryShape = (m: MemoryRecord) => ({
  id: m.id,
  session_id: m.sessionId,
  category: m.category,
  key: m.key,
  value: m.value,
  confidence: m.confidence,
  source: m.source,
  created_at: iso(m.createdAt),
  last_accessed: iso(m.lastAccessed),
  access_count: m.accessCount,
  content: m.content,
  tags: m.tags,
  scope: m.scope,
  project_id: m.projectId,
  message_id: m.messageId,
  importance: m.importance,
  status: m.status,
  superseded_by: m.supersededBy,
  language: m.language,
  updated_at: iso(m.updatedAt),
  version: m.version,
});

const historyShape = (h: MemoryHistoryEntry) => ({ version: h.version, action: h.action, actor: h.actor, reason: h.reason, created_at: iso(h.createdAt) });

/** 001 GET /memory/long-term/{id}: the entry, its change history and where it was learned. */
export const memoryDetailShape = (d: MemoryDetail) => ({
  ...memoryShape(d.memory),
  history: d.history.map(historyShape),
  origin: d.origin && {
    session_id: d.origin.sessionId,
    message_id: d.origin.messageId,
    session_title: d.origin.sessionTitle,
    message_exists: d.origin.messageExists,
  },
});

export const clearShape = (r: ClearReport) => ({
  memories_deleted: r.memoriesDeleted,
  history_deleted: r.historyDeleted,
  profile_versions_deleted: r.profileVersionsDeleted,
  profile_changed: r.profileChanged,
});

/** 001 "返回删除成功确认", and whether the profile line the memory wrote went with it. */
export const deleteShape = (r: DeleteResult) => ({ deleted: r.deleted, id: r.id, profile_changed: r.profileChanged });

/** 001 working memory, field for field. */
export const workingMemoryShape = (w: WorkingMemory) => ({
  session_id: w.sessionId,
  current_topic: w.currentTopic,
  context_variables: w.contextVariables,
  turn_count: w.turnCount,
  last_emotion: w.lastEmotion,
  created_at: iso(w.createdAt),
  updated_at: iso(w.updatedAt),
});
