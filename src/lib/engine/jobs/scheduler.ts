import type { Clock } from '../../domain/clock';
import type { EngineCaller } from '../client/caller';
import type { JobDefinition, JobProgress, JobTrigger } from './types';

export interface SchedulerOptions {
  jobs: readonly JobDefinition[];
  engine: EngineCaller;
  clock: Clock;
  onProgress: (p: JobProgress) => void;
  /** The user counts as idle after this long without activity. */
  idleAfterMs?: number;
  /** How often the scheduler looks at its timers. */
  tickMs?: number;
  /** Whether this tab may run scheduled (not on-demand) jobs; e.g. it holds the 'engram-jobs' lock. */
  mayRunScheduled?: () => Promise<boolean> | boolean;
}

export interface Scheduler {
  /** Runs a job now (on demand); resolves with its result. One run per job at a time. */
  run(name: string, trigger?: JobTrigger): Promise<JobProgress>;
  /**
   * Runs a job afresh because what it reads at its start changed (e.g. the embedding model): a run in flight is
   * asked to stop (its signal aborts; a job checks it between steps) and a new run follows it at once, without
   * waiting for a tick. Several calls while one run stops share the one run that follows.
   */
  restart(name: string, trigger?: JobTrigger): Promise<JobProgress>;
  /** The page reports user activity; idle jobs wait for quiet. */
  activity(): void;
  /**
   * One scheduling pass (the timer calls it, and the jobs worker when this tab is granted the jobs lock; tests call
   * it directly). Passes never overlap: a call while one runs is answered by one more pass after it (calls meanwhile
   * share it), so a pass racing the lock grant cannot start the start-up jobs a second time.
   */
  tick(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Runs background jobs on idle, periodically and on demand. At most one run per job at once; each run's
 * outcome is recorded through the engine (jobs.record) so settings can show it — except a run that found
 * nothing to do — and progress is pushed to the page. A new job is one more JobDefinition in JOBS
 * (worker-api.ts).
 *
 *   tick ─▶ due? (periodMs, onIdle, onStartup) ─▶ run ─▶ result | null (nothing to do) | failure ─▶ jobs.record
 */
export function createScheduler(opts: SchedulerOptions): Scheduler {
  const idleAfterMs = opts.idleAfterMs ?? 60_000;
  const running = new Map<string, Promise<JobProgress>>();
  const controllers = new Map<string, AbortController>();
  const restarts = new Map<string, Promise<JobProgress>>();
  const lastRun = new Map<string, number>();
  let lastActivity = opts.clock.now();
  let timer: ReturnType<typeof setInterval> | null = null;
  let startedUp = false;

  function byName(name: string): JobDefinition {
    const job = opts.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`unknown job ${name}`);
    return job;
  }

  async function execute(job: JobDefinition, trigger: JobTrigger): Promise<JobProgress> {
    const startedAt = opts.clock.now();
    const controller = new AbortController();
    controllers.set(job.name, controller);
    const progress = (fraction: number | null, step: string) =>
      opts.onProgress({ job: job.name, fraction, step, state: 'running' });
    progress(0, 'jobs.step.start');
    let outcome: JobProgress;
    let quiet = false;
    try {
      const result = await job.run({ engine: opts.engine, trigger, progress, signal: controller.signal, idleMs: opts.clock.now() - lastActivity });
      quiet = result === null;
      outcome = { job: job.name, fraction: 1, step: 'jobs.step.done', state: 'done', ...(result ? { result } : {}) };
    } catch (err) {
      outcome = {
        job: job.name,
        fraction: null,
        step: 'jobs.step.failed',
        state: 'failed',
        error: err instanceof Error ? err.message : 'job failed',
      };
    }
    lastRun.set(job.name, opts.clock.now());
    controllers.delete(job.name);
    if (quiet) {
      opts.onProgress(outcome);
      return outcome;
    }
    const recorded = await opts.engine.call('jobs.record', {
      job: job.name,
      trigger,
      status: outcome.state === 'done' ? 'ok' : 'failed',
      startedAt,
      finishedAt: opts.clock.now(),
      result: outcome.result ?? { error: outcome.error ?? 'failed' },
    });
    if (!recorded.ok) outcome = { ...outcome, error: outcome.error ?? recorded.error.message };
    opts.onProgress(outcome);
    return outcome;
  }

  function run(name: string, trigger: JobTrigger = 'demand'): Promise<JobProgress> {
    const existing = running.get(name);
    if (existing) return existing;
    const p = execute(byName(name), trigger).finally(() => running.delete(name));
    running.set(name, p);
    return p;
  }

  function restart(name: string, trigger: JobTrigger = 'demand'): Promise<JobProgress> {
    byName(name);
    const existing = running.get(name);
    if (!existing) return run(name, trigger);
    controllers.get(name)?.abort();
    const queued = restarts.get(name);
    if (queued) return queued;
    const next = existing
      .catch(() => undefined)
      .then(() => {
        restarts.delete(name);
        return run(name, trigger);
      });
    restarts.set(name, next);
    return next;
  }

  /** The last recorded run of each job survives reloads: read it once from the engine. */
  async function loadHistory(): Promise<void> {
    for (const job of opts.jobs) {
      const res = await opts.engine.call('jobs.history', { job: job.name, limit: 1 });
      const last = res.ok ? res.data[0] : undefined;
      if (last && !lastRun.has(job.name)) lastRun.set(job.name, last.finishedAt);
    }
  }

  let ticking: Promise<void> | null = null;
  let nextTick: Promise<void> | null = null;

  function tick(): Promise<void> {
    if (!ticking) {
      ticking = schedulingPass().finally(() => (ticking = null));
      return ticking;
    }
    nextTick ??= ticking
      .catch(() => undefined)
      .then(() => {
        nextTick = null;
        return tick();
      });
    return nextTick;
  }

  async function schedulingPass(): Promise<void> {
    if (opts.mayRunScheduled && !(await opts.mayRunScheduled())) return;
    const firstTick = !startedUp;
    if (firstTick) await loadHistory();
    startedUp = true;
    const now = opts.clock.now();
    const idle = now - lastActivity >= idleAfterMs;
    for (const job of opts.jobs) {
      if (firstTick && job.onStartup) {
        await run(job.name, 'startup');
        continue;
      }
      if (job.periodMs === undefined) continue;
      const last = lastRun.get(job.name);
      const due = last === undefined || now - last >= job.periodMs;
      if (!due) continue;
      if (job.onIdle && !idle) continue;
      await run(job.name, job.onIdle ? 'idle' : 'periodic');
    }
  }

  return {
    run,
    restart,
    activity() {
      lastActivity = opts.clock.now();
    },
    tick,
    start() {
      timer ??= setInterval(() => void tick(), opts.tickMs ?? 15_000);
      void tick();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
