/**
 * THE protocol contract: every engine call, its zod input, its output type and the error codes it may
 * return (besides COMMON_ERRORS). The DB worker, the follower-tab relay, the jobs worker, the UI client
 * and the Node host are all built from this one object.
 *
 *   UI ──Comlink──▶ db.worker ──(leader?)──▶ Engine.handle(method, input)
 *                      │ no: BroadcastChannel ▶ leader tab's worker
 *   jobs.worker ──MessagePort──┘
 */
import { z } from 'zod';
import { settingsPatchSchema, type Settings } from '../../domain/settings';
import { call, lazyEntries, type CallSpec } from './define';
import type { Message, Session, Summary, WorkingMemory } from '../../domain/conversation/types';
import type { ConversationStoreResult, SummarizeResult } from '../conversation/conversation-service';
import type { SearchHit } from '../recall/search-service';
import type { RecallResponse } from '../recall/types';
import type { CleanupReport } from '../store/cleanup';
import type { MemoryRecord } from '../../domain/memory';
import type * as Mem from '../memory/types';
import * as memoryInput from '../memory/schemas';
import type * as Ctx from '../context/types';
import type * as Backup from '../backup';
import * as backupInput from '../backup/schemas';
import type { IntegrityReport, JobRun, MaintenanceReport, StorageReclaim, StorageUsage, SystemStatus } from './types';
import type { ReindexReport } from '../store/fts-reindex';
import type * as Ep from '../episodes/types';
import * as episodeInput from '../episodes/schemas';
import type * as Sem from '../semantic/types';
import type * as Imp from '../imports';
import * as importInput from '../imports/schemas';
import type * as Emb from '../embeddings/types';
import * as embeddingInput from '../embeddings/schemas';
import type { EraseReport } from '../store/erase';
import type * as Turn from '../turn/types';
import type * as Life from '../lifecycle/types';
import type * as Clearing from '../clearing';

const none = z.strictObject({});
const id = z.string().min(1).max(100);
const messageId = z.number().int().positive();
const time = z.number().int().nonnegative();
/** A message may be long (pasted code, a chapter), but not unbounded. */
const messageContent = z.string().min(1).max(200_000);
const emotion = z.enum(['joy', 'gratitude', 'anger', 'frustration', 'sadness', 'anxiety', 'surprise', 'neutral']);
const messageMeta = z.strictObject({
  model: z.string().max(200).optional(),
  memoryIds: z.array(z.string().max(100)).max(100).optional(),
  runId: z.string().max(100).optional(),
  errorCode: z.string().max(60).optional(),
});
/** 05 doc: a point in story time (chapter, scene). */
const storyPoint = z.strictObject({ chapter: z.number().int().min(0), scene: z.number().int().min(0).default(0) });
const jobName = z.string().regex(/^[a-z][a-z0-9-]{1,40}$/, 'a job name in kebab-case');
/**
 * The most selected text `embeddings.prepare` takes (its `selectionText`). The engine recalls by far less of it
 * (context.build's contextQuery keeps the message and the selection's first 4,000 characters); a caller cuts
 * a longer selection to this before it asks, so the call is never refused for a long selection.
 */
export const PREPARE_SELECTION_MAX_CHARS = 100_000;
/** The most characters `context.build` takes in each part of a selection (before, text, after); a caller cuts to it. */
export const SELECTION_PART_MAX_CHARS = 200_000;

// Each entry is a thunk, built on first use (define.ts lazyEntries, issue 16: the DB worker's cold start built all
// of the calls' zod schemas at module load, though its first recall needs one). An entry added as a plain spec works too.
export const contract = lazyEntries({
  // ── system ────────────────────────────────────────────────────────────────
  'system.status': () => call<SystemStatus>()({ input: none }),

  // ── settings (000/001 configuration) ──────────────────────────────────────
  'settings.get': () => call<Settings>()({ input: none }),
  'settings.update': () => call<Settings>()({ input: z.strictObject({ patch: settingsPatchSchema }), write: true }),

  // ── background jobs and maintenance ───────────────────────────────────────
  'maintenance.optimize': () => call<MaintenanceReport>()({ input: none, write: true, background: true }),
  'maintenance.ftsMerge': () => call<MaintenanceReport>()({ input: none, write: true, background: true }),
  'maintenance.integrityCheck': () => call<IntegrityReport>()({ input: none }),
  /**
   * 002 memory_reindex: every full-text row rebuilt with the current segmenter (also run at start when it changed),
   * in short transactions with the worker free in between (issue 16); cut short, the next one goes on from there.
   */
  'maintenance.reindex': () => call<ReindexReport>()({ input: none, write: true, background: true, twoStep: true }),
  'jobs.record': () => call<JobRun>()({
    input: z.strictObject({
      job: jobName,
      trigger: z.enum(['idle', 'periodic', 'demand', 'startup']),
      status: z.enum(['ok', 'failed']),
      startedAt: z.number().int().nonnegative(),
      finishedAt: z.number().int().nonnegative(),
      result: z.record(z.string(), z.unknown()),
    }),
    write: true,
    background: true,
  }),
  'jobs.history': () => call<JobRun[]>()({
    input: z.strictObject({ job: jobName.optional(), limit: z.number().int().min(1).max(100).default(10) }),
  }),

  // ── conversations, summaries, symbols, recall, cleanup (issue 3) ──────────
  'session.create': () => call<Session>()({
    /** `id`: a caller-chosen conversation id (the Node host's 002 `--conversation <id>`); taken → CONFLICT. */
    input: z.strictObject({ projectId: id.nullable().optional(), title: z.string().max(200).optional(), id: id.optional() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  'session.list': () => call<{ items: Session[]; total: number }>()({
    input: z.strictObject({
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
      starredOnly: z.boolean().default(false),
      projectId: id.nullable().optional(),
    }),
  }),
  'session.get': () => call<Session>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'] }),
  'session.update': () => call<Session>()({
    input: z.strictObject({ id, title: z.string().max(200).optional(), isCollected: z.boolean().optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'session.delete': () => call<CleanupReport>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** 002 memory_store: one user or assistant message, written before the UI shows it as sent. */
  'message.append': () => call<ConversationStoreResult>()({
    input: z.strictObject({
      sessionId: id,
      role: z.enum(['user', 'assistant']),
      content: messageContent,
      status: z.enum(['complete', 'stopped', 'failed']).default('complete'),
      meta: messageMeta.optional(),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /**
   * A page of a conversation, oldest first: the newest `limit` messages, those just before `beforeId`
   * ("load earlier"), or those just after `afterId` ("load later", after jumping to an old message).
   * `afterId` must name a message of this conversation (NOT_FOUND otherwise).
   */
  'message.list': () => call<Message[]>()({
    input: z
      .strictObject({
        sessionId: id,
        limit: z.number().int().min(1).max(1000).default(200),
        beforeId: messageId.optional(),
        afterId: messageId.optional(),
      })
      .refine((v) => v.beforeId === undefined || v.afterId === undefined, { message: 'give `beforeId` or `afterId`, not both', path: ['afterId'] }),
    errors: ['NOT_FOUND'],
  }),
  'message.get': () => call<Message>()({ input: z.strictObject({ id: messageId }), errors: ['NOT_FOUND'] }),
  'message.update': () => call<Message>()({
    input: z.strictObject({
      id: messageId,
      isCollected: z.boolean().optional(),
      content: messageContent.optional(),
      status: z.enum(['complete', 'stopped', 'failed']).optional(),
      meta: messageMeta.optional(),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'message.delete': () => call<{ deleted: number }>()({ input: z.strictObject({ id: messageId }), errors: ['NOT_FOUND'], write: true }),
  /** 001 GET /memory/working/{session_id} */
  'workingMemory.get': () => call<WorkingMemory>()({ input: z.strictObject({ sessionId: id }), errors: ['NOT_FOUND'] }),
  /** The model's analysis of a turn (topic, variables, emotion), when there is a model. */
  'workingMemory.update': () => call<WorkingMemory>()({
    input: z.strictObject({
      sessionId: id,
      currentTopic: z.string().max(200).nullable().optional(),
      contextVariables: z.record(z.string().max(80), z.string().max(400)).optional(),
      lastEmotion: emotion.nullable().optional(),
    }),
    errors: ['NOT_FOUND'],
  }),
  /** 001 auto-cleanup after 30 idle minutes (the jobs worker calls it every minute). */
  'workingMemory.sweep': () => call<{ removed: string[]; archived: number }>()({ input: none, write: true, background: true }),
  'summary.list': () => call<Summary[]>()({
    input: z.strictObject({ sessionId: id, kind: z.enum(['rolling', 'compact']).optional() }),
    errors: ['NOT_FOUND'],
  }),
  /** 002 memory_summarize */
  'summary.create': () => call<SummarizeResult>()({
    input: z.strictObject({ sessionId: id, fromTurn: z.number().int().min(1), toTurn: z.number().int().min(1) }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** 002 SC-LTM-003 "定期摘要": the rolling summaries that are due — one conversation's, or (no id) those of the
   *  conversations that have any (the jobs worker's periodic pass). */
  'summary.roll': () => call<{ created: number[]; sessions: number }>()({
    input: z.strictObject({ sessionId: id.optional() }),
    errors: ['NOT_FOUND'],
    write: true,
    // The jobs worker's bookkeeping (after a reply, and at every start-up): never a person's save, no op id (a
    // second roll finds nothing due).
    background: true,
    // issue 16: the pass over every conversation runs in slices after the write step (rolling-summaries.ts).
    twoStep: true,
  }),
  /** A model's better summary of a block that has an extractive one. */
  'summary.replace': () => call<Summary>()({
    input: z.strictObject({
      id: z.number().int().positive(),
      summary: z.string().min(1).max(4000),
      keySymbols: z.array(z.string().max(200)).max(30),
      keyDecisions: z.array(z.string().max(400)).max(20),
    }),
    errors: ['NOT_FOUND'],
    write: true,
    // The after-reply job's rewrite (also at start-up, for what a closed window left): bookkeeping, as summary.roll.
    background: true,
  }),
  /** A summary links back to its turns. */
  'summary.turns': () => call<Message[]>()({ input: z.strictObject({ id: z.number().int().positive() }), errors: ['NOT_FOUND'] }),
  'summary.pending': () => call<Summary[]>()({ input: z.strictObject({ limit: z.number().int().min(1).max(50).default(5) }) }),
  /** 002 memory_recall */
  'recall.search': () => call<RecallResponse>()({
    input: z.strictObject({
      query: z.string().min(1).max(4000),
      limit: z.number().int().min(1).max(50).default(5),
      currentSessionId: id.optional(),
      includeSummaries: z.boolean().default(true),
    }),
    errors: ['MEMORY_BACKPRESSURE'],
    memoryQuery: true,
  }),
  /** The recall page: full-text search with filters and highlighted snippets. */
  'search.messages': () => call<{ items: SearchHit[]; total: number; mode: 'all' | 'any' | 'substring' }>()({
    input: z.strictObject({
      query: z.string().min(1).max(500),
      sessionId: id.optional(),
      from: time.optional(),
      to: time.optional(),
      role: z.enum(['user', 'assistant']).optional(),
      starredOnly: z.boolean().default(false),
      limit: z.number().int().min(1).max(100).default(20),
      offset: z.number().int().min(0).default(0),
    }),
  }),
  /** 002 memory_cleanup: exactly one of olderThanDays, sessionId, all (+confirm). */
  'cleanup.run': () => call<CleanupReport>()({
    input: z.union([
      z.strictObject({ olderThanDays: z.number().int().min(1).max(36_500) }),
      z.strictObject({ sessionId: id }),
      z.strictObject({ all: z.literal(true), confirm: z.boolean().default(false) }),
    ]),
    errors: ['NOT_FOUND', 'MEMORY_CLEAR_CONFIRM_REQUIRED', 'MEMORY_CLEANUP_FAILED'],
    write: true,
  }),

  // ── long-term memory, profile, retrieval (issue 4) ────────────────────────
  /** 001 GET /memory/long-term?limit&offset: the memory manager's page, with filters, search and total. */
  'memory.list': () => call<{ items: MemoryRecord[]; total: number }>()({
    input: z.strictObject({
      limit: z.number().int().min(1).max(200).default(20),
      offset: z.number().int().min(0).default(0),
      category: memoryInput.memoryCategory.optional(),
      source: memoryInput.memorySource.optional(),
      scope: memoryInput.memoryScope.optional(),
      status: z.enum(['active', 'superseded', 'all']).default('active'),
      projectId: id.nullable().optional(),
      query: z.string().max(500).optional(),
      sort: z.enum(['updated', 'created', 'confidence', 'lastAccessed']).default('updated'),
    }),
  }),
  /** 001 GET /memory/long-term/{id}: the record, its history and where it was learned. */
  'memory.get': () => call<Mem.MemoryDetail>()({ input: z.strictObject({ id: memoryInput.memoryId }), errors: ['NOT_FOUND'] }),
  /** The chat's "memory used" expander: the records that still exist, in the order asked for. */
  'memory.getMany': () => call<MemoryRecord[]>()({ input: z.strictObject({ ids: z.array(memoryInput.memoryId).max(100) }) }),
  /** A memory the user adds by hand: user_stated, confidence 1.0 unless given. */
  'memory.create': () => call<MemoryRecord>()({
    input: z.strictObject({
      content: memoryInput.memoryContent,
      category: memoryInput.memoryCategory.default('fact'),
      key: memoryInput.memoryKey.optional(),
      value: memoryInput.memoryValue.optional(),
      tags: memoryInput.memoryTags.default([]),
      confidence: memoryInput.memoryConfidence.default(1),
      importance: memoryInput.memoryConfidence.optional(),
      scope: memoryInput.memoryScope.default('global'),
      projectId: id.optional(),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** An edit in the manager (history entry, actor 'user'); `expectedVersion` guards against a stale editor. */
  'memory.update': () => call<MemoryRecord>()({
    input: z.strictObject({
      id: memoryInput.memoryId,
      expectedVersion: z.number().int().min(1).optional(),
      content: memoryInput.memoryContent.optional(),
      value: memoryInput.memoryValue.optional(),
      tags: memoryInput.memoryTags.optional(),
      category: memoryInput.memoryCategory.optional(),
      key: memoryInput.memoryKey.optional(),
      confidence: memoryInput.memoryConfidence.optional(),
      importance: memoryInput.memoryConfidence.optional(),
    }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  /** 001 DELETE /memory/long-term/{id}: permanent. */
  'memory.delete': () => call<Mem.DeleteResult>()({ input: z.strictObject({ id: memoryInput.memoryId }), errors: ['NOT_FOUND'], write: true }),
  /** 001 DELETE /memory/long-term: everything, only with `confirm: true`; working memories stay. */
  'memory.clear': () => call<Mem.ClearReport>()({
    input: z.strictObject({ confirm: z.boolean().default(false), includeProfile: z.boolean().default(false) }),
    errors: ['MEMORY_CLEAR_CONFIRM_REQUIRED'],
    write: true,
  }),
  /** Takes back a memory's last change (the chat's "remembered: … [undo]"). */
  'memory.undo': () => call<Mem.UndoResult>()({ input: z.strictObject({ id: memoryInput.memoryId }), errors: ['NOT_FOUND'], write: true }),
  /** A superseded memory becomes current again, or (with `version`) a memory returns to an earlier version. */
  'memory.restore': () => call<MemoryRecord>()({
    input: z.strictObject({ id: memoryInput.memoryId, version: z.number().int().min(1).optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** 000 MemoryService.GetRelevantMemories / 001 retrieval, explained term by term. A read. */
  'memory.retrieve': () => call<Mem.RetrievalResult>()({
    input: z.strictObject({
      query: z.string().max(20_000),
      topN: z.number().int().min(0).max(100).optional(),
      sessionId: id.optional(),
      projectId: id.nullable().optional(),
      purpose: z.enum(['context', 'api']).default('api'),
    }),
    errors: ['MEMORY_BACKPRESSURE'],
    memoryQuery: true,
  }),
  /** 001 "Memory access tracking": the memories that were placed in the model's context. */
  'memory.markAccessed': () => call<{ updated: number }>()({ input: z.strictObject({ ids: z.array(memoryInput.memoryId).min(1).max(100) }), write: true }),
  /**
   * 000 "主动记忆搜索": the model's search_memories(keyword, timeRange) tool. With the `runId` of the
   * generating run, what it returns is marked accessed and stored with the run (run.get toolMemoryIds).
   */
  'memory.search': () => call<Mem.MemorySearchResult>()({
    input: z.strictObject({
      keyword: z.string().trim().min(1).max(200),
      fromMs: time.optional(),
      toMs: time.optional(),
      limit: z.number().int().min(1).max(50).default(10),
      projectId: id.nullable().optional(),
      runId: id.optional(),
    }),
    errors: ['NOT_FOUND', 'CONFLICT', 'MEMORY_BACKPRESSURE'],
    memoryQuery: true,
  }),
  /** 000 "原子记忆异步写入": after a reply, from the user's message (rules) or the model's memory_update. */
  'memory.extract': () => call<Mem.ExtractResult>()({
    input: z.strictObject({ sessionId: id, userMessageId: messageId, candidates: memoryInput.modelAnswer.optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** 001 optional eviction, on demand (it also runs after each write that adds memories). */
  'memory.evict': () => call<Mem.EvictionReport>()({ input: none, write: true }),
  /** 000 "用户画像": the document; `enabled` = memory.enable_user_profile (loaded into L1). */
  'profile.get': () => call<Mem.ProfileState & { enabled: boolean }>()({ input: none }),
  'profile.update': () => call<Mem.ProfileState>()({
    input: z.strictObject({ content: memoryInput.profileContent, expectedVersion: z.number().int().min(0).optional() }),
    errors: ['CONFLICT'],
    write: true,
  }),
  'profile.history': () => call<{ items: Mem.ProfileVersion[]; total: number }>()({
    input: z.strictObject({ limit: z.number().int().min(1).max(100).default(20), offset: z.number().int().min(0).default(0) }),
  }),
  'profile.undo': () => call<{ undone: number | null; profile: Mem.ProfileState }>()({ input: none, write: true }),

  // ── context engine, skills, feedback, project files (issue 5) ─────────────
  /** The built-in skills (names are i18n keys) and their parsed context_rules. */
  'skill.list': () => call<Ctx.SkillInfo[]>()({ input: none }),
  /** A skill's raw context_rules (object or JSON string) through the same strict parser the registry uses. */
  'skill.validate': () => call<Ctx.ContextRules>()({ input: z.strictObject({ contextRules: z.unknown() }) }),
  /**
   * 004 "构建一次 SKILL 调用的上下文包": the six layers for a chat turn or a skill run, stored as a pending
   * run (with its trace) in one transaction; the L4 memories kept are marked accessed.
   */
  'context.build': () => call<Ctx.ContextBuildResult>()({
    input: z.strictObject({
      kind: z.enum(['chat', 'skill']),
      skillId: z.string().regex(/^[a-z][a-z0-9-]{1,40}$/, 'a skill id').optional(),
      sessionId: id.optional(),
      projectId: id.optional(),
      documentId: id.optional(),
      message: messageContent,
      excludeMessageId: messageId.optional(),
      selection: z.strictObject({ before: z.string().max(SELECTION_PART_MAX_CHARS), text: z.string().max(SELECTION_PART_MAX_CHARS), after: z.string().max(SELECTION_PART_MAX_CHARS) }).optional(),
      budgets: z.partialRecord(z.enum(['L0', 'L1', 'L2', 'L3', 'L4', 'L5']), z.number().int().min(0).max(200_000)).optional(),
      tokenRatio: z.number().min(0.25).max(4).optional(),
      locale: z.enum(['en', 'zh-CN']),
      /** The caller's id for this build: `context.cancel` with it stops the build (→ CANCELED, no run stored). */
      requestId: z.string().min(8).max(100).optional(),
      /** The message is an instruction the user typed, not the skill's default (the writing working memory's intent, issue 17). */
      typed: z.boolean().optional(),
    }),
    errors: ['NOT_FOUND', 'CANCELED', 'TIMEOUT'],
  }),
  /** 004 "用户取消": Stop while the context is being built. `canceled` is false when no such build runs (yet). */
  'context.cancel': () => call<{ canceled: boolean }>()({ input: z.strictObject({ requestId: z.string().min(8).max(100) }) }),
  /** A pending run ends: the reply was stored (completed, with its message id), stopped, failed or timed out. */
  'run.complete': () => call<Ctx.RunSummary>()({
    input: z.strictObject({ runId: id, status: z.enum(['completed', 'canceled', 'failed', 'timeout']), messageId: messageId.optional() }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  /** The inspector: a run's layers (tokens, budget, sources, cuts) and, for the 30 most recent, its prompt. */
  'run.get': () => call<Ctx.RunDetail>()({ input: z.strictObject({ runId: id }), errors: ['NOT_FOUND'] }),
  'run.list': () => call<Ctx.RunSummary[]>()({
    input: z.strictObject({ sessionId: id.optional(), documentId: id.optional(), limit: z.number().int().min(1).max(200).default(20) }),
  }),
  /** The run behind a chat reply. */
  'run.forMessage': () => call<Ctx.RunDetail>()({ input: z.strictObject({ messageId }), errors: ['NOT_FOUND'] }),
  /** 003 memory:trace:get ("为什么这样写？"): the memories a generation rested on, with influence weights. */
  'run.trace': () => call<Ctx.GenerationTrace>()({ input: z.strictObject({ runId: id }), errors: ['NOT_FOUND'] }),
  /** 003 memory:trace:feedback: "incorrect" about a learned rule lowers its confidence. */
  'run.traceFeedback': () => call<Ctx.GenerationTrace>()({
    input: z.strictObject({ runId: id, verdict: z.enum(['correct', 'incorrect']), referenceId: z.string().max(300).optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** Closes runs still pending after 10 minutes as `timeout` (the jobs worker calls it). */
  'run.sweep': () => call<{ timedOut: string[] }>()({ input: none, write: true, background: true }),
  /**
   * 004 "采纳/拒绝触发偏好信号入库": records the event and, for a skill run, its episode — nothing is learned
   * in this call (issue 17): distillation in the jobs worker does that; `distillDue` says it is due.
   */
  'feedback.record': () => call<Ctx.FeedbackResult>()({
    input: z.strictObject({
      runId: id,
      action: z.enum(['accept', 'reject', 'partial']),
      sampleRefs: z
        .array(
          z.union([
            z.strictObject({ documentId: id, from: z.number().int().min(0), to: z.number().int().min(0) }),
            z.strictObject({ messageId }),
          ]),
        )
        .max(20)
        .default([]),
      editDistance: z.number().min(0).max(1).optional(),
      outputText: z.string().max(200_000).optional(),
      finalText: z.string().max(200_000).optional(),
    }),
    errors: ['NOT_FOUND', 'CONFLICT', 'CANCELED', 'TIMEOUT'],
    write: true,
  }),
  /** The learning history ("查看学习历史"). */
  'feedback.list': () => call<Ctx.FeedbackEvent[]>()({
    input: z.strictObject({ runId: id.optional(), skillId: z.string().max(41).optional(), limit: z.number().int().min(1).max(200).default(50) }),
  }),
  /** 003 memory:semantic:list — `projectId` lists that project's rules and the global ones. */
  'rules.list': () => call<Ctx.SemanticRule[]>()({
    input: z.strictObject({ scope: z.enum(['global', 'project']).optional(), projectId: id.optional(), includeDeleted: z.boolean().default(false) }),
    errors: ['MEMORY_BACKPRESSURE'],
    memoryQuery: true,
  }),
  /** 003 memory:semantic:add — confidence 1.0, confirmed. */
  'rules.add': () => call<Ctx.SemanticRule>()({
    input: z.strictObject({
      rule: z.string().trim().min(1).max(500),
      category: z.enum(['style', 'structure', 'character', 'pacing', 'vocabulary']).default('style'),
      scope: z.enum(['global', 'project']).default('global'),
      projectId: id.optional(),
      key: z.string().trim().min(1).max(200).optional(),
    }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  /** 003 memory:semantic:update — a text edit marks the rule user-modified (version + 1). */
  'rules.update': () => call<Ctx.SemanticRule>()({
    input: z.strictObject({
      id,
      rule: z.string().trim().min(1).max(500).optional(),
      category: z.enum(['style', 'structure', 'character', 'pacing', 'vocabulary']).optional(),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'rules.confirm': () => call<Ctx.SemanticRule>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** 003 memory:semantic:delete — the key is remembered, so learning never re-creates the rule. */
  'rules.delete': () => call<{ deleted: true; id: string }>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** 003 memory:promote — project → global. */
  'rules.promote': () => call<Ctx.SemanticRule>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND', 'CONFLICT'], write: true }),
  'project.create': () => call<Ctx.Project>()({ input: z.strictObject({ name: z.string().trim().min(1).max(200) }), write: true }),
  'project.list': () => call<Ctx.Project[]>()({ input: none }),
  'project.get': () => call<Ctx.Project>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'] }),
  'project.rename': () => call<Ctx.Project>()({
    input: z.strictObject({ id, name: z.string().trim().min(1).max(200) }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** Deletes documents, project rules, runs and project memories; conversations stay, detached. Files follow. */
  'project.delete': () => call<{ deleted: true; id: string }>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** Setting files in OPFS (`.engram/…`, project-relative). Async: not write calls (no op id, no change event). */
  'projectFile.list': () => call<Ctx.ProjectFileEntry[]>()({
    input: z.strictObject({ projectId: id, folder: z.string().min(1).max(500).optional() }),
    errors: ['NOT_FOUND'],
  }),
  'projectFile.read': () => call<Ctx.ProjectFile>()({ input: z.strictObject({ projectId: id, path: z.string().min(1).max(500) }), errors: ['NOT_FOUND'] }),
  'projectFile.write': () => call<Ctx.ProjectFileEntry>()({
    input: z.strictObject({ projectId: id, path: z.string().min(1).max(500), content: z.string().max(1_000_000) }),
    errors: ['NOT_FOUND', 'QUOTA_EXCEEDED'],
  }),
  'projectFile.delete': () => call<{ deleted: boolean }>()({ input: z.strictObject({ projectId: id, path: z.string().min(1).max(500) }), errors: ['NOT_FOUND'] }),
  'document.create': () => call<Ctx.Document>()({
    input: z.strictObject({ projectId: id, title: z.string().max(200).default(''), content: z.string().max(2_000_000).default('') }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'document.list': () => call<Ctx.DocumentSummary[]>()({ input: z.strictObject({ projectId: id }), errors: ['NOT_FOUND'] }),
  'document.get': () => call<Ctx.Document>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'] }),
  'document.update': () => call<Ctx.Document>()({
    input: z.strictObject({ id, title: z.string().max(200).optional(), content: z.string().max(2_000_000).optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'document.delete': () => call<{ deleted: true; id: string }>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** Knowledge graph (05 doc): the minimal store behind KnowledgeGraphReader, and the consistency-check query. */
  'graph.addEntity': () => call<Ctx.Entity>()({
    input: z.strictObject({
      projectId: id,
      type: z.enum(['character', 'place', 'object', 'organization', 'event', 'concept']),
      name: z.string().trim().min(1).max(200),
      aliases: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
      sourceRef: z.string().min(1).max(500).optional(),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'graph.addFact': () => call<Ctx.Fact>()({
    input: z.strictObject({
      projectId: id,
      subject: id,
      predicate: z.string().trim().min(1).max(100),
      object: z.string().trim().min(1).max(500),
      valid: z.strictObject({ from: storyPoint.nullable().default(null), to: storyPoint.nullable().default(null) }).default({ from: null, to: null }),
      evidence: z.array(z.strictObject({ ref: z.string().min(1).max(500), at: storyPoint.optional() })).max(20).default([]),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'graph.check': () => call<Ctx.GraphCheckResult>()({
    input: z.strictObject({
      projectId: id,
      names: z.array(z.string().trim().min(1).max(200)).min(1).max(50),
      at: storyPoint.optional(),
      functional: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
    }),
    errors: ['NOT_FOUND'],
  }),

  // ── writing memory that learns: episodes, working memory, distillation, conflicts (issue 17) ──
  /**
   * 003 memory:episode:record (fire-and-forget from the Write page): what the user did with a skill run's
   * candidates — or `{ runId, undo: true }`, the undo of an accepted output (delayed negative). Writes the
   * episode and the 004 feedback event in one transaction; learns nothing (see distill.*).
   */
  'episode.record': () => call<Ep.EpisodeRecordResult>()({ input: episodeInput.episodeRecord, errors: ['NOT_FOUND', 'CONFLICT', 'CANCELED', 'TIMEOUT'], write: true }),
  /** 003 memory:episode:query: 3–5 episodes by scene type + text similarity, each with why. A read. */
  'episode.query': () => call<Ep.EpisodeQueryResult>()({ input: episodeInput.episodeQuery, errors: ['NOT_FOUND', 'MEMORY_BACKPRESSURE'], memoryQuery: true }),
  'episode.list': () => call<{ items: Ep.Episode[]; total: number }>()({ input: episodeInput.episodeList }),
  'episode.get': () => call<Ep.Episode>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'] }),
  /** The episodes behind a learning-history entry, those that still exist, in the order asked for. */
  'episode.getMany': () => call<Ep.Episode[]>()({ input: z.strictObject({ ids: z.array(id).max(100) }) }),
  /** 003 Layer 1, the Write page's working memory of a chapter (the inspector shows it). */
  'writingMemory.get': () => call<Ep.WritingMemoryView>()({ input: z.strictObject({ documentId: id }), errors: ['NOT_FOUND'] }),
  /** A writing session ends (chapter or project switch, the tab closing): signals past their threshold become episodes. */
  'writingMemory.end': () => call<Ep.WritingSessionEnd>()({ input: z.strictObject({ documentId: id }), write: true, background: true }),
  /** Sessions idle for 30 minutes (or whose tab is gone) end; the jobs worker calls it every minute. */
  'writingMemory.sweep': () => call<Ep.WritingSessionEnd>()({ input: none, write: true, background: true }),
  /** What a skill run's context took from the writing memory: the working memory and the episodes, with why. */
  'run.learning': () => call<Ep.RunLearning>()({ input: z.strictObject({ runId: id }), errors: ['NOT_FOUND'] }),
  /** Paused? New episodes, what is due (003 triggers), the last distillation. */
  'distill.status': () => call<Sem.DistillStatus>()({ input: none }),
  /** One distillation at a time: the consistent snapshot it works on (or why it did not start). */
  'distill.begin': () => call<{ state: 'started'; snapshot: Sem.DistillSnapshot } | { state: 'skipped'; reason: 'paused' | 'running' }>()({
    input: z.strictObject({ trigger: episodeInput.distillTrigger }),
    write: true,
    background: true,
  }),
  /** The jobs worker's plan, applied in one transaction against the rules as they are now. */
  'distill.apply': () => call<Sem.DistillApplyResult>()({ input: episodeInput.distillApply, errors: ['NOT_FOUND', 'CONFLICT'], write: true, background: true }),
  /** A distillation that could not finish: the rules stay as they are, the next trigger retries. */
  'distill.fail': () => call<{ failed: boolean }>()({
    input: z.strictObject({ distillId: id, errorCode: z.string().regex(/^[A-Z][A-Z_]{1,40}$/, 'an error code') }),
    errors: ['NOT_FOUND'],
    write: true,
    background: true,
  }),
  /** 003 "查看学习历史": what was learned or changed, when, from which episodes (newest first). */
  'rules.history': () => call<{ items: Sem.RuleChange[]; total: number }>()({
    input: z.strictObject({
      ruleId: id.optional(),
      /** A project: its rules' history and the global rules'; null: the global rules' only. */
      projectId: id.nullable().optional(),
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
    }),
  }),
  /** 003 直接矛盾 waiting for the user: a project's and the global ones (no projectId: all). */
  'rules.conflicts': () => call<Sem.RuleConflict[]>()({ input: z.strictObject({ projectId: id.nullable().optional() }) }),
  /** The user's choice: the kept rule is confirmed, the other deleted (never learned again). */
  'rules.resolveConflict': () => call<{ kept: Ctx.SemanticRule; deleted: string }>()({
    input: z.strictObject({ conflictId: id, keepRuleId: id }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  /** 003 memory:clear:project: one project's episodes and rules (global memory stays), only with `confirm`. */
  'memory.clearProject': () => call<Sem.ProjectClearReport>()({
    input: z.strictObject({ projectId: id, confirm: z.boolean().default(false) }),
    errors: ['NOT_FOUND', 'MEMORY_CLEAR_CONFIRM_REQUIRED'],
    write: true,
  }),

  // ── backup: export, import, database file (issue 6) ───────────────────────
  /** Starts a chunked JSON export of everything, a project or a conversation (rows captured now). */
  'backup.exportBegin': () => call<Backup.ExportStarted>()({ input: z.strictObject({ scope: backupInput.scope }), errors: ['NOT_FOUND'] }),
  /** The next piece of the export's JSON text and the progress; `done` on the last piece. */
  'backup.exportChunk': () => call<Backup.ExportChunk>()({
    input: z.strictObject({ exportId: id, maxChars: backupInput.chunkChars }),
    errors: ['NOT_FOUND'],
  }),
  'backup.exportCancel': () => call<{ canceled: boolean }>()({ input: z.strictObject({ exportId: id }) }),
  /** Reads and validates a file (nothing is written) and says what merge or replace would do. */
  'backup.importPreview': () => call<Backup.ImportPreview>()({
    input: z.union([
      z.strictObject({ file: backupInput.file, mode: backupInput.mode.default('merge'), dryRun: backupInput.dryRun }),
      z.strictObject({ token: backupInput.token, mode: backupInput.mode.default('merge'), dryRun: backupInput.dryRun }),
    ]),
    errors: ['NOT_FOUND', 'UNSUPPORTED_VERSION'],
  }),
  /**
   * Writes a previewed file in short transactions with the worker free in between (issue 16; backup.importProgress
   * tells how far); the last also records the plan for its files. Cut short, the same file applied again resumes.
   */
  'backup.importApply': () => call<Backup.ImportResult>()({
    input: z.strictObject({ token: backupInput.token, mode: backupInput.mode }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
    twoStep: true,
  }),
  /** After importApply: writes the project setting files it recorded (idempotent; also done at the next start). */
  'backup.importFiles': () => call<Backup.FilesReport>()({ input: z.strictObject({ token: backupInput.token }), errors: ['NOT_FOUND'] }),
  'backup.importDiscard': () => call<{ discarded: boolean }>()({ input: z.strictObject({ token: backupInput.token }) }),
  /** The SQLite database file, byte for byte (a Blob). */
  'backup.exportDbFile': () => call<Backup.DbFileExport>()({ input: none }),
  /** Integrity and version check of a database file, changing nothing. */
  'backup.checkDbFile': () => call<Backup.DbFileCheck>()({ input: z.strictObject({ file: backupInput.file }), errors: ['UNSUPPORTED_VERSION'] }),
  /** Replaces the whole database with a checked file. */
  'backup.importDbFile': () => call<Backup.DbFileCheck>()({
    input: z.strictObject({ file: backupInput.file, confirm: z.literal(true) }),
    errors: ['UNSUPPORTED_VERSION'],
  }),

  // ── storage (issue 13) ────────────────────────────────────────────────────
  /** What uses the database's space, by area (conversations, memories, writing, app), and its free pages. */
  'storage.usage': () => call<StorageUsage>()({ input: none }),
  /**
   * "Free space now": the write-ahead log is written back and emptied (a checkpoint, which cannot run in
   * a write transaction — hence no write call; it changes no row). On a full disk, room for new writes.
   */
  'storage.reclaim': () => call<StorageReclaim>()({ input: none }),
  /**
   * A previewed import written in bounded steps, each its own transaction (the Node host's long imports
   * let other writers through between steps). The step that writes the last row returns the result.
   */
  'backup.importStep': () => call<Backup.ImportStepResult>()({
    input: z.strictObject({ token: backupInput.token, mode: backupInput.mode, maxRows: z.number().int().min(1).max(100_000).default(1000) }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  // ── imports from other apps, readable exports (issue 14) ──────────────────
  /** Reads a ChatGPT / Claude export, SillyTavern chats or World Info, or conversation logs, and says what importing it adds. Writes nothing. */
  'import.preview': () => call<Imp.ImportPlanPreview>()({
    input: z.strictObject({
      source: importInput.source.default('auto'),
      files: importInput.files,
      /** A lorebook's target project (an existing one); without it, a project named `projectName` (or the book's name). */
      projectId: id.optional(),
      projectName: z.string().trim().min(1).max(200).optional(),
    }),
    errors: ['NOT_FOUND', 'CONFLICT'],
  }),
  /** How far import.preview has read the files it was given (they have no token until they are read). */
  'import.reading': () => call<Backup.ImportReading>()({ input: none }),
  /** Writes the next conversations of a previewed import (one short transaction); call until `done`. */
  'import.applyStep': () => call<Imp.ImportProgress>()({ input: z.strictObject({ token: importInput.token }), errors: ['NOT_FOUND', 'CONFLICT'], write: true }),
  /** After the last step: writes a lorebook's setting files and ends the import. */
  'import.finish': () => call<Imp.ImportFinish>()({ input: z.strictObject({ token: importInput.token }), errors: ['NOT_FOUND'] }),
  /** Takes back everything the import wrote so far; a previewed import is just forgotten. */
  'import.cancel': () => call<{ canceled: boolean; conversations: number }>()({ input: z.strictObject({ token: importInput.token }), write: true }),
  /** Background: memories and rolling summaries of imported conversations, at most `limit` user messages per call. */
  'import.followUp': () => call<Imp.FollowUpReport>()({
    input: z.strictObject({ limit: z.number().int().min(1).max(1000).default(100) }),
    write: true,
    background: true,
  }),
  /** What the background follow-up still has to do, the import in progress, the last imports. */
  'import.status': () => call<ReturnType<Imp.ImportServices['status']>>()({ input: none }),
  /** A conversation, a project's whole memory, or all long-term memory and the profile, as Markdown. */
  'export.markdown': () => call<Imp.MarkdownExport>()({
    input: z.strictObject({ scope: importInput.markdownScope, locale: z.enum(['en', 'zh-CN']).default('en') }),
    errors: ['NOT_FOUND'],
  }),
  // ── meaning-based recall: embeddings (issue 18) ───────────────────────────
  /** The endpoint and embedding model in force (from the page's model settings; kept in the DB worker's memory, never stored). */
  'embeddings.configure': () => call<Emb.EmbeddingStatus>()({ input: z.strictObject({ endpoint: embeddingInput.endpoint.nullable() }) }),
  /**
   * A question while it is typed: its embedding is asked for now (an endpoint on this device only), so the recall
   * that follows it does not wait for the endpoint. `as: 'message'` embeds what a chat or skill message is recalled
   * by (the message, and the selection); `as: 'ask'` the text as it is (recall.search).
   */
  'embeddings.prepare': () => call<{ state: Emb.PrepareState }>()({
    input: z.strictObject({ text: z.string().min(1).max(200_000), as: z.enum(['ask', 'message']).default('ask'), selectionText: z.string().max(PREPARE_SELECTION_MAX_CHARS).optional() }),
  }),
  /** How far the background fill has come, and whether meaning-based recall is on, off or degraded (and why). */
  'embeddings.status': () => call<Emb.EmbeddingStatus>()({ input: none }),
  /** Texts the model has no vector for yet (memories first, then turns in order): the jobs worker embeds them. */
  'embeddings.pending': () => call<Emb.PendingTexts>()({ input: z.strictObject({ model: embeddingInput.model, limit: z.number().int().min(1).max(256).default(32) }) }),
  /** Vectors from the embedding model, quantised and stored (a new model's first vectors replace the old model's). */
  'embeddings.store': () => call<Emb.StoreResult>()({
    input: z.strictObject({ model: embeddingInput.model, items: z.array(embeddingInput.item).min(1).max(256) }),
    write: true,
    background: true,
  }),
  // ── erase everything on this device (issue 15) ────────────────────────────
  /**
   * Every row of every table, every full-text entry and every project's files; the file shrinks to its
   * schema (VACUUM). Not a `write`: it cannot run inside one transaction, and no outbox may replay it.
   */
  'system.erase': () => call<EraseReport>()({ input: z.strictObject({ confirm: z.literal(true) }) }),
  // ── turns: one call per chat turn each way (issue 16) ─────────────────────
  /**
   * Prepares a chat turn in one call: the user's message is stored (a new conversation made first when there is no
   * `sessionId`; on `retryOf`, that message's replies are removed instead), then the context is built for it and
   * returned as the request to send. A build that is stopped (`context.cancel { requestId }`) or fails is reported
   * in `context` — the message stays stored either way.
   */
  'turn.prepare': () => call<Turn.PreparedTurn>()({
    input: z
      .strictObject({
        sessionId: id.optional(),
        projectId: id.optional(),
        content: messageContent.optional(),
        retryOf: messageId.optional(),
        requestId: z.string().min(8).max(100).optional(),
        locale: z.enum(['en', 'zh-CN']),
        tokenRatio: z.number().min(0.25).max(4).optional(),
        budgets: z.partialRecord(z.enum(['L0', 'L1', 'L2', 'L3', 'L4', 'L5']), z.number().int().min(0).max(200_000)).optional(),
      })
      .refine((v) => (v.content === undefined) !== (v.retryOf === undefined), { message: 'give `content` (a new message) or `retryOf` (answer one again), exactly one', path: ['content'] })
      .refine((v) => v.retryOf === undefined || v.projectId === undefined, { message: '`projectId` is for a new conversation, not a retry', path: ['projectId'] }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
    twoStep: true,
  }),
  /**
   * Finishes a turn (or a skill run) in one transaction: the reply is stored when there is text (status from
   * `outcome`: completed → complete, canceled → stopped, failed/timeout → failed), the run completes with it, and —
   * for a completed chat turn with its `userMessageId` — the after-reply work is queued for the jobs worker.
   */
  'turn.finish': () => call<Turn.FinishedTurn>()({
    input: z.strictObject({
      runId: id,
      outcome: z.enum(['completed', 'canceled', 'failed', 'timeout']),
      text: z.string().max(200_000).default(''),
      userMessageId: messageId.optional(),
      model: z.string().max(200).optional(),
      errorCode: z.string().max(60).optional(),
      toolMemoryIds: z.array(z.string().max(100)).max(100).default([]),
    }),
    errors: ['NOT_FOUND', 'CONFLICT'],
    write: true,
  }),
  /** After-reply work queued longer than `olderThanMs` ago and not done: a window closed before its jobs worker got to it. */
  'turn.afterReplyPending': () => call<Turn.AfterReplyJob[]>()({
    input: z.strictObject({ olderThanMs: z.number().int().min(0).default(60_000), limit: z.number().int().min(1).max(50).default(10) }),
  }),
  'turn.afterReplyDone': () => call<{ done: boolean }>()({ input: z.strictObject({ runId: id }), write: true, background: true }),
  /** The conversations a change event named, as a list shows them (those still there), and the list's new total. */
  /** How far backup.importApply has come with a previewed file. */
  'backup.importProgress': () => call<Backup.ImportProgress>()({ input: z.strictObject({ token: backupInput.token }), errors: ['NOT_FOUND'] }),
  /** How far backup.importPreview has read the file it was given (the file has no token until it is read). */
  'backup.importReading': () => call<Backup.ImportReading>()({ input: none }),
  'session.getMany': () => call<{ items: Session[]; total: number }>()({
    input: z.strictObject({ ids: z.array(id).max(200), starredOnly: z.boolean().default(false), projectId: id.nullable().optional() }),
  }),

  // ── memory that forgets on purpose: decay, compression, purge, the forgetting ledger (issue 19) ──
  /** When each lifecycle phase last ran or failed (MEMORY_CLEANUP_FAILED), what is due, and the counts. */
  'lifecycle.status': () => call<Life.LifecycleStatus>()({ input: none }),
  /**
   * One lifecycle pass (the jobs worker's `lifecycle` job; Settings' "clean now"): the phases asked for, in
   * short transactions; one at a time (another caller gets `skipped: running`); a failure answers
   * MEMORY_CLEANUP_FAILED and the phase is due again in the next window. `vacuum`: give freed bytes back.
   */
  'lifecycle.run': () => call<Life.LifecycleRunResult>()({
    input: z.strictObject({
      phases: z.array(z.enum(['decay', 'compress', 'purge'])).min(1).max(3),
      vacuum: z.boolean().default(false),
    }),
    errors: ['MEMORY_CLEANUP_FAILED'],
    write: true,
    background: true,
    twoStep: true,
  }),
  /** The forgetting ledger: what faded, was compressed or deleted by policy, newest first. */
  'lifecycle.ledger': () => call<{ items: Life.LedgerEntry[]; total: number }>()({
    input: z.strictObject({
      projectId: id.nullable().optional(),
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
    }),
  }),
  /** "Keep this": pin an episode or rule back — exempt from decay, never compressed, purged or evicted. */
  'lifecycle.keep': () => call<{ kept: boolean; decay: number }>()({
    input: z.strictObject({ itemType: z.enum(['episode', 'rule']), itemId: id }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /**
   * Model-phrased compression summaries (issue 19 item 2): the episodes due for compression with what the
   * model may read (the template's facts, short excerpts); the jobs worker asks the configured model, then
   * `lifecycle.compressWith` writes each summary only if its episode is unchanged and still due (else skipped:
   * the pass compresses it with the template). Candidates come a bounded window of rows at a time: `after` is
   * the previous answer's `next`.
   */
  'lifecycle.summaryCandidates': () => call<{ items: Life.SummaryCandidate[]; next: number | null }>()({
    input: z.strictObject({ limit: z.number().int().min(1).max(50).default(10), after: z.number().int().min(0).default(0) }),
  }),
  'lifecycle.compressWith': () => call<{ compressed: string[]; skipped: string[] }>()({
    input: z.strictObject({
      items: z.array(z.strictObject({ id, seen: z.string().max(100), summary: z.string().trim().min(1).max(2_000) })).max(50),
    }),
    write: true,
    background: true,
  }),
  // ── clearing that means it (issue 19) ─────────────────────────────────────
  /**
   * 003 memory:clear:all: a fresh user — every memory, episode, rule (with history, conflicts, feedback), run,
   * profile version and summary; the conversations only with `includeConversations`. Only with `confirm: true`
   * (MEMORY_CLEAR_CONFIRM_REQUIRED otherwise, and nothing changes); recorded in the clear log.
   */
  'memory.clearAll': () => call<Clearing.ClearAllReport>()({
    input: z.strictObject({ confirm: z.boolean().default(false), includeConversations: z.boolean().default(false) }),
    errors: ['MEMORY_CLEAR_CONFIRM_REQUIRED'],
    write: true,
  }),
  /** The clear log, newest first: when, what, how many of each kind, and the local profile that asked. */
  'memory.clearLog': () => call<Clearing.ClearLogEntry[]>()({ input: z.strictObject({ limit: z.number().int().min(1).max(200).default(50) }) }),
} as const satisfies Record<string, CallSpec | (() => CallSpec)>);

export type Contract = typeof contract;
export type Method = keyof Contract;
/** What a caller sends (before defaults). */
export type Input<M extends Method> = z.input<Contract[M]['input']>;
/** What a handler receives (after defaults). */
export type Parsed<M extends Method> = z.output<Contract[M]['input']>;
export type Output<M extends Method> = NonNullable<Contract[M]['output']>;
export type DeclaredError<M extends Method> = Contract[M]['errors'][number];

export const METHODS = Object.keys(contract) as Method[];

export function isMethod(value: unknown): value is Method {
  return typeof value === 'string' && Object.hasOwn(contract, value);
}

/** A write a person made (not the app's own bookkeeping): what counts as "a real save" (ARCHITECTURE §3). */
export function isUserWrite(method: Method): boolean {
  const spec = contract[method];
  return spec.write && !spec.background;
}
