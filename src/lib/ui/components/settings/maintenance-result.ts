import { z } from 'zod';
import type { JobRun } from '../../../engine/protocol/types';

/**
 * A maintenance run's recorded result, read defensively: `jobs.history` stores whatever the job returned
 * (engine/jobs/maintenance-job.ts), and older runs may lack newer fields.
 */
export interface MaintenanceSummary {
  optimizeMs: number | null;
  ftsTables: number | null;
  ftsMergeMs: number | null;
  integrity: 'ok' | 'problems' | null;
  integrityMs: number | null;
  /** The job's failure text (built from codes and counts by the job, never user content). */
  error: string | null;
}

const num = z.number().nonnegative().nullable().catch(null);
const resultSchema = z.object({
  optimizeMs: num.default(null),
  ftsTables: num.default(null),
  ftsMergeMs: num.default(null),
  integrity: z.literal('ok').nullable().catch(null).default(null),
  integrityMs: num.default(null),
  error: z.string().max(500).nullable().catch(null).default(null),
});

/** The maintenance job fails with "integrity check found N problem(s)" when PRAGMA integrity_check complains. */
const INTEGRITY_FAILURE = /^integrity check found/i;

export function summarizeMaintenance(run: Pick<JobRun, 'status' | 'result'>): MaintenanceSummary {
  const r = resultSchema.parse(run.result ?? {});
  const integrity = r.integrity === 'ok' ? 'ok' : r.error && INTEGRITY_FAILURE.test(r.error) ? 'problems' : null;
  return { ...r, integrity, error: run.status === 'failed' ? (r.error ?? 'failed') : null };
}

/** Jobs report steps as 'jobs.step.optimize'; the i18n key is 'jobs:step.optimize'. */
export function jobStepKey(step: string): string {
  return step.startsWith('jobs.') ? `jobs:${step.slice('jobs.'.length)}` : step;
}
