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
import { call, type CallSpec } from './define';
import type { Message, Session, Summary, WorkingMemory } from '../../domain/conversation/types';
import type { ConversationStoreResult, SummarizeResult } from '../conversation/conversation-service';
import type { SearchHit } from '../recall/search-service';
import type { RecallResponse } from '../recall/types';
import type { CleanupReport } from '../store/cleanup';
import type { IntegrityReport, JobRun, MaintenanceReport, SystemStatus } from './types';

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
const jobName = z.string().regex(/^[a-z][a-z0-9-]{1,40}$/, 'a job name in kebab-case');

export const contract = {
  // ── system ────────────────────────────────────────────────────────────────
  'system.status': call<SystemStatus>()({ input: none }),

  // ── settings (000/001 configuration) ──────────────────────────────────────
  'settings.get': call<Settings>()({ input: none }),
  'settings.update': call<Settings>()({ input: z.strictObject({ patch: settingsPatchSchema }), write: true }),

  // ── background jobs and maintenance ───────────────────────────────────────
  'maintenance.optimize': call<MaintenanceReport>()({ input: none, write: true }),
  'maintenance.ftsMerge': call<MaintenanceReport>()({ input: none, write: true }),
  'maintenance.integrityCheck': call<IntegrityReport>()({ input: none }),
  'jobs.record': call<JobRun>()({
    input: z.strictObject({
      job: jobName,
      trigger: z.enum(['idle', 'periodic', 'demand', 'startup']),
      status: z.enum(['ok', 'failed']),
      startedAt: z.number().int().nonnegative(),
      finishedAt: z.number().int().nonnegative(),
      result: z.record(z.string(), z.unknown()),
    }),
    write: true,
  }),
  'jobs.history': call<JobRun[]>()({
    input: z.strictObject({ job: jobName.optional(), limit: z.number().int().min(1).max(100).default(10) }),
  }),

  // ── conversations, summaries, symbols, recall, cleanup (issue 3) ──────────
  'session.create': call<Session>()({
    input: z.strictObject({ projectId: id.nullable().optional(), title: z.string().max(200).optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'session.list': call<{ items: Session[]; total: number }>()({
    input: z.strictObject({
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
      starredOnly: z.boolean().default(false),
      projectId: id.nullable().optional(),
    }),
  }),
  'session.get': call<Session>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'] }),
  'session.update': call<Session>()({
    input: z.strictObject({ id, title: z.string().max(200).optional(), isCollected: z.boolean().optional() }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  'session.delete': call<CleanupReport>()({ input: z.strictObject({ id }), errors: ['NOT_FOUND'], write: true }),
  /** 002 memory_store: one user or assistant message, written before the UI shows it as sent. */
  'message.append': call<ConversationStoreResult>()({
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
  'message.list': call<Message[]>()({
    input: z.strictObject({ sessionId: id, limit: z.number().int().min(1).max(1000).default(200), beforeId: messageId.optional() }),
  }),
  'message.get': call<Message>()({ input: z.strictObject({ id: messageId }), errors: ['NOT_FOUND'] }),
  'message.update': call<Message>()({
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
  'message.delete': call<{ deleted: number }>()({ input: z.strictObject({ id: messageId }), errors: ['NOT_FOUND'], write: true }),
  /** 001 GET /memory/working/{session_id} */
  'workingMemory.get': call<WorkingMemory>()({ input: z.strictObject({ sessionId: id }), errors: ['NOT_FOUND'] }),
  /** The model's analysis of a turn (topic, variables, emotion), when there is a model. */
  'workingMemory.update': call<WorkingMemory>()({
    input: z.strictObject({
      sessionId: id,
      currentTopic: z.string().max(200).nullable().optional(),
      contextVariables: z.record(z.string().max(80), z.string().max(400)).optional(),
      lastEmotion: emotion.nullable().optional(),
    }),
    errors: ['NOT_FOUND'],
  }),
  /** 001 auto-cleanup after 30 idle minutes (the jobs worker calls it every minute). */
  'workingMemory.sweep': call<{ removed: string[]; archived: number }>()({ input: none, write: true }),
  'summary.list': call<Summary[]>()({ input: z.strictObject({ sessionId: id, kind: z.enum(['rolling', 'compact']).optional() }) }),
  /** 002 memory_summarize */
  'summary.create': call<SummarizeResult>()({
    input: z.strictObject({ sessionId: id, fromTurn: z.number().int().min(1), toTurn: z.number().int().min(1) }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** A model's better summary of a block that has an extractive one. */
  'summary.replace': call<Summary>()({
    input: z.strictObject({
      id: z.number().int().positive(),
      summary: z.string().min(1).max(4000),
      keySymbols: z.array(z.string().max(200)).max(30),
      keyDecisions: z.array(z.string().max(400)).max(20),
    }),
    errors: ['NOT_FOUND'],
    write: true,
  }),
  /** A summary links back to its turns. */
  'summary.turns': call<Message[]>()({ input: z.strictObject({ id: z.number().int().positive() }), errors: ['NOT_FOUND'] }),
  'summary.pending': call<Summary[]>()({ input: z.strictObject({ limit: z.number().int().min(1).max(50).default(5) }) }),
  /** 002 memory_recall */
  'recall.search': call<RecallResponse>()({
    input: z.strictObject({
      query: z.string().min(1).max(4000),
      limit: z.number().int().min(1).max(50).default(5),
      currentSessionId: id.optional(),
      includeSummaries: z.boolean().default(true),
    }),
  }),
  /** The recall page: full-text search with filters and highlighted snippets. */
  'search.messages': call<{ items: SearchHit[]; total: number; mode: 'all' | 'any' | 'substring' }>()({
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
  'cleanup.run': call<CleanupReport>()({
    input: z.union([
      z.strictObject({ olderThanDays: z.number().int().min(1).max(36_500) }),
      z.strictObject({ sessionId: id }),
      z.strictObject({ all: z.literal(true), confirm: z.boolean().default(false) }),
    ]),
    errors: ['NOT_FOUND', 'MEMORY_CLEAR_CONFIRM_REQUIRED', 'MEMORY_CLEANUP_FAILED'],
    write: true,
  }),

  // ── long-term memory, profile, retrieval (issue 4) ────────────────────────

  // ── context engine, skills, feedback, project files (issue 5) ─────────────

  // ── backup: export, import, database file (issue 6) ───────────────────────
} as const satisfies Record<string, CallSpec>;

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
