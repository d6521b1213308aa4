/**
 * Memory that forgets on purpose, scheduled in the jobs worker (seed 003 清理调度, issue 19):
 *
 *   start-up   decay recomputed (and whatever else is due)
 *   daily      decay                    ┐ the engine says what is due (lifecycle.status): a phase whose
 *   weekly     compression              │ window has come, or whose last run failed — retried in the
 *   monthly    purge                    ┘ next window (003 清理任务失败触发告警: "下一调度窗口自动重试")
 *   demand     Settings' "clean now": every phase, then VACUUM so the freed bytes leave the file
 *
 * It looks once an hour (a window). Distillation keeps its own schedule (distill-job.ts). Each phase is one
 * lifecycle.run, which works in ~20 ms transactions; one pass at a time (the scheduler runs one per job, the
 * engine refuses a second pass). A failure throws MEMORY_CLEANUP_FAILED: the run is recorded as failed in
 * the job history, and the page shows a notice. Before the compress phase, the configured model phrases the
 * summaries of the episodes due (lifecycle-summaries.ts); the phase compresses the rest with the template.
 */
import { unwrap } from '../../domain/errors';
import { LIFECYCLE_PHASES, type LifecyclePhase } from '../lifecycle/types';
import type { ModelProvider } from '../../domain/llm/types';
import { modelSummaries, type ModelSummaryReport } from './lifecycle-summaries';
import type { JobDefinition } from './types';

/** How often the job looks at what is due (a failed phase is retried at the next look). */
export const LIFECYCLE_WINDOW_MS = 3_600_000;
export const LIFECYCLE_JOB = 'lifecycle';

export const lifecycleJob = (deps: { provider: () => ModelProvider | null }): JobDefinition => ({
  name: LIFECYCLE_JOB,
  periodMs: LIFECYCLE_WINDOW_MS,
  onStartup: true,
  async run(ctx) {
    const status = unwrap(await ctx.engine.call('lifecycle.status', {}));
    const wanted = new Set<LifecyclePhase>(ctx.trigger === 'demand' ? LIFECYCLE_PHASES : status.due);
    if (ctx.trigger === 'startup') wanted.add('decay');
    const phases = LIFECYCLE_PHASES.filter((p) => wanted.has(p));
    if (phases.length === 0) return null;
    // checkpoints: the WAL checkpoints the clean-up ran between its slices (what its I/O was made of, issue 19).
    const totals = { faded: 0, compressed: 0, deleted: 0, scanned: 0, bytesFreed: 0, checkpoints: 0 };
    let summaries: ModelSummaryReport | null = null;
    for (const [i, phase] of phases.entries()) {
      ctx.progress(i / phases.length, `jobs.step.lifecycle-${phase}`);
      if (phase === 'compress') {
        summaries = await modelSummaries({ engine: ctx.engine, provider: deps.provider(), signal: ctx.signal });
        totals.compressed += summaries.byModel;
      }
      const vacuum = ctx.trigger === 'demand' && i === phases.length - 1;
      const res = await ctx.engine.call('lifecycle.run', { phases: [phase], vacuum });
      if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
      if (res.data.state === 'skipped') return ctx.trigger === 'demand' ? { skipped: res.data.reason } : null;
      for (const r of res.data.phases) {
        totals.faded += r.faded;
        totals.compressed += r.compressed;
        totals.deleted += r.deleted;
        totals.scanned += r.scanned;
      }
      totals.bytesFreed += Math.max(0, res.data.bytesBefore - res.data.bytesAfter);
      totals.checkpoints += res.data.checkpoints;
    }
    // How the summaries were phrased: counts and a reason code only, never the memory's text.
    const phrasing = summaries ? { summariesByModel: summaries.byModel, summariesSkipped: summaries.skipped, summaryFallback: summaries.fallback } : {};
    return { phases: phases.join(','), ...totals, ...phrasing };
  },
});
