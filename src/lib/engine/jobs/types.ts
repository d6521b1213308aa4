import type { EngineCaller } from '../client/caller';

export type JobTrigger = 'idle' | 'periodic' | 'demand' | 'startup';

export interface JobProgress {
  job: string;
  /** 0..1, or null while unknown. */
  fraction: number | null;
  /** An i18n key for the current step. */
  step: string;
  state: 'running' | 'done' | 'failed';
  result?: Record<string, unknown>;
  error?: string;
}

export interface JobContext {
  engine: EngineCaller;
  trigger: JobTrigger;
  progress(fraction: number | null, step: string): void;
  signal: AbortSignal;
  /** How long the user has been idle (no keys, no pointer) when the run starts; absent: not known (0). */
  idleMs?: number;
}

export interface JobDefinition {
  name: string;
  /** Run every this many ms (only in the tab holding the jobs lock). */
  periodMs?: number;
  /** Run when the user has been idle and the last run is older than periodMs. */
  onIdle?: boolean;
  onStartup?: boolean;
  /**
   * The run's result, recorded with jobs.record for settings; `null` when there was nothing to do — such
   * a run is not recorded (a sweep every minute must not fill job_runs or wake every view).
   */
  run(ctx: JobContext): Promise<Record<string, unknown> | null>;
}
