import * as Comlink from 'comlink';
import { systemClock } from '../../domain/clock';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../domain/llm/settings';
import { afterReply, type AfterReplyInput, type AfterReplyResult } from './after-reply';
import { createCaller, type RawEndpoint } from '../client/caller';
import { maintenanceJob } from './maintenance-job';
import { rollingSummariesJob } from './rolling-summaries-job';
import { workingMemoryJob } from './working-memory-job';
import { runSweepJob } from '../context/run-sweep-job';
import { createScheduler, type Scheduler } from './scheduler';
import type { JobDefinition, JobProgress } from './types';

import { afterReplyJob } from './after-reply-job';
import type { ModelProvider } from '../../domain/llm/types';

/** The model the page last asked for (afterReply): the after-reply job uses it for what a closed window left. */
let lastModel: ModelSettings | null = null;
const lastProvider = (): ModelProvider => createProvider(lastModel ?? { ...DEFAULT_MODEL_SETTINGS });

export const JOBS: readonly JobDefinition[] = [maintenanceJob, workingMemoryJob, runSweepJob, rollingSummariesJob, afterReplyJob(lastProvider)];
export const JOBS_LOCK = 'engram-jobs';

export interface JobsWorkerApi {
  /** `port` leads to the DB worker; `onProgress` is a Comlink proxy into the page. */
  start(port: MessagePort, onProgress: (p: JobProgress) => void): void;
  run(name: string): Promise<JobProgress>;
  /** Memory extraction and summary upkeep after a completed reply (off the UI thread). */
  afterReply(input: AfterReplyInput, model: ModelSettings): Promise<AfterReplyResult>;
  activity(): void;
  jobNames(): string[];
}

/** The object jobs.worker.ts exposes. It never opens the database: every read and write goes via the port. */
export function createJobsWorkerApi(): JobsWorkerApi {
  let scheduler: Scheduler | null = null;
  let engine: ReturnType<typeof createCaller> | null = null;
  const need = () => {
    if (!scheduler) throw new Error('jobs worker not started');
    return scheduler;
  };
  return {
    start(port, onProgress) {
      if (scheduler) return;
      const caller = createCaller(Comlink.wrap<RawEndpoint>(port));
      engine = caller;
      // Scheduled work runs in one tab only: whichever jobs worker holds this lock, for as long as it lives.
      let scheduling = false;
      void navigator.locks.request(JOBS_LOCK, () => {
        scheduling = true;
        return new Promise<void>(() => {});
      });
      scheduler = createScheduler({
        jobs: JOBS,
        engine: caller,
        clock: systemClock,
        onProgress: (p) => void Promise.resolve(onProgress(p)).catch(() => {}),
        mayRunScheduled: () => scheduling,
      });
      scheduler.start();
    },
    run: (name) => need().run(name, 'demand'),
    afterReply(input, model) {
      if (!engine) throw new Error('jobs worker not started');
      lastModel = model;
      return afterReply({ engine, provider: createProvider(model), input });
    },
    activity: () => need().activity(),
    jobNames: () => JOBS.map((j) => j.name),
  };
}
