/**
 * Test support: the jobs worker's scheduler with the learning jobs, over a test engine, as the app runs
 * them (distillation, the writing-memory sweep). `run` is what the memory panel's "update preferences"
 * calls; `progress` what the page's connection keeps of each job's reports.
 */
import type { Clock } from '../../domain/clock';
import type { ModelProvider } from '../../domain/llm/types';
import type { EngineCaller } from '../client/caller';
import { distillJob } from './distill-job';
import { createScheduler } from './scheduler';
import type { JobProgress } from './types';
import { writingMemoryJob } from './writing-memory-job';
import { lifecycleJob } from './lifecycle-job';

export function testJobs(opts: { engine: EngineCaller; clock: Clock; provider?: () => ModelProvider | null; idleAfterMs?: number }) {
  const reports: JobProgress[] = [];
  const last = new Map<string, JobProgress>();
  const scheduler = createScheduler({
    jobs: [distillJob({ provider: opts.provider ?? (() => null) }), writingMemoryJob, lifecycleJob({ provider: opts.provider ?? (() => null) })],
    engine: opts.engine,
    clock: opts.clock,
    onProgress: (p) => {
      reports.push(p);
      last.set(p.job, p);
    },
    ...(opts.idleAfterMs === undefined ? {} : { idleAfterMs: opts.idleAfterMs }),
  });
  return {
    scheduler,
    reports,
    run: (name: string) => scheduler.run(name, 'demand'),
    progress: (name: string) => last.get(name),
  };
}
