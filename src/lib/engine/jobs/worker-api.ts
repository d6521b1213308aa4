import * as Comlink from 'comlink';
import { systemClock } from '../../domain/clock';
import { createProvider } from '../../domain/llm';
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../domain/llm/settings';
import { afterReply, type AfterReplyInput, type AfterReplyResult } from './after-reply';
import { createCaller, type RawEndpoint } from '../client/caller';
import { maintenanceJob } from './maintenance-job';
import { rollingSummariesJob } from './rolling-summaries-job';
import { importFollowUpJob } from './import-follow-up-job';
import { workingMemoryJob } from './working-memory-job';
import { embeddingsEndpoint, embeddingsJob } from './embeddings-job';
import { embedWithProvider } from '../embeddings';
import type { EmbeddingEndpoint } from '../embeddings/semantic-service';
import { runSweepJob } from '../context/run-sweep-job';
import { distillJob } from './distill-job';
import { writingMemoryJob } from './writing-memory-job';
import type { Scheduler } from './scheduler';
import { createLockedScheduler } from './scheduling-lock';
import type { JobDefinition, JobProgress } from './types';
import { afterReplyJob } from './after-reply-job';
import { lifecycleJob } from './lifecycle-job';
import type { ModelProvider } from '../../domain/llm/types';

/** The model the page configured, for jobs that can use one (distillation phrases rules with it). */
let model: ModelSettings | null = null;
const provider = () => (model ? createProvider(model) : null);
/** The embedding endpoint the page configured (model settings live in the page's Dexie; issue 18). */
const embeddingEndpoint = embeddingsEndpoint();
/** The after-reply job, for what a closed window left: the configured model, else the one the page last asked with. */
const lastProvider = (): ModelProvider => createProvider(model ?? lastModel ?? { ...DEFAULT_MODEL_SETTINGS });
let lastModel: ModelSettings | null = null;

export const JOBS: readonly JobDefinition[] = [
  maintenanceJob,
  workingMemoryJob,
  runSweepJob,
  rollingSummariesJob,
  writingMemoryJob,
  distillJob({ provider }),
  importFollowUpJob,
  afterReplyJob(lastProvider),
  embeddingsJob({ endpoint: embeddingEndpoint.get, embed: embedWithProvider }),
  // Memory that forgets on purpose (issue 19): decay daily, compression weekly, purge monthly.
  lifecycleJob({ provider }),
];

export interface JobsWorkerApi {
  /** `port` leads to the DB worker; `onProgress` is a Comlink proxy into the page. */
  start(port: MessagePort, onProgress: (p: JobProgress) => void): void;
  run(name: string): Promise<JobProgress>;
  /** Memory extraction and summary upkeep after a completed reply (off the UI thread). */
  afterReply(input: AfterReplyInput, model: ModelSettings): Promise<AfterReplyResult>;
  activity(): void;
  jobNames(): string[];
  /** The model settings in force (the page sends them at start and on every change). */
  setModel(settings: ModelSettings): void;
  /** Looks at a scheduled job now (e.g. distillation right after a skill run: 003 批量触发). */
  kick(name: string): Promise<JobProgress>;
  /** The embedding endpoint and model from the model settings (null: none); a new one starts the fill at once. */
  configureEmbeddings(endpoint: EmbeddingEndpoint | null): void;
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
      // Scheduled work runs in one tab only: whichever jobs worker holds the jobs lock, for as long as it lives;
      // the grant starts a pass at once (the start-up jobs), not the next tick.
      const s = createLockedScheduler(navigator.locks, {
        jobs: JOBS,
        engine: caller,
        clock: systemClock,
        onProgress: (p) => void Promise.resolve(onProgress(p)).catch(() => {}),
      });
      scheduler = s;
      s.start();
      void embeddingEndpoint.attach(s);
    },
    run: (name) => need().run(name, 'demand'),
    afterReply(input, model) {
      if (!engine) throw new Error('jobs worker not started');
      lastModel = model;
      return afterReply({ engine, provider: createProvider(model), input });
    },
    activity: () => need().activity(),
    jobNames: () => JOBS.map((j) => j.name),
    setModel(settings) {
      model = settings;
    },
    kick: (name) => need().run(name, 'periodic'),
    configureEmbeddings(endpoint) {
      void embeddingEndpoint.set(endpoint);
    },
  };
}
