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
import type { IntegrityReport, JobRun, MaintenanceReport, SystemStatus } from './types';

const none = z.strictObject({});
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
