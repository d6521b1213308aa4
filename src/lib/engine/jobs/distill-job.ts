/**
 * Distillation's schedule in the jobs worker (seed 003 "蒸馏触发条件"):
 *
 *   batch     50 new episodes since the last distillation (also poked right after a skill run, `kick`)
 *   idle      the user away from the editor for over 5 minutes, with new episodes
 *   manual    the memory panel's "update preferences" (a demand run)
 *   conflict  an episode voted hard against a rule (episode.record asked for it)
 *
 * It looks every 30 seconds (a cheap status read; a look that finds nothing due is not recorded). Paused
 * learning freezes it; one distillation at a time is the engine's lease. A failed run throws, so the
 * scheduler records it as failed and the panel can show it; the rules are untouched.
 */
import { unwrap } from '../../domain/errors';
import type { ModelProvider } from '../../domain/llm/types';
import type { DistillTrigger } from '../semantic/types';
import { runDistillation } from './distill-run';
import type { JobDefinition } from './types';

/** 003 空闲触发: "用户离开编辑器 > 5 分钟时后台执行". */
export const DISTILL_IDLE_MS = 5 * 60_000;

export function distillJob(deps: { provider: () => ModelProvider | null }): JobDefinition {
  return {
    name: 'distill',
    periodMs: 30_000,
    async run(ctx) {
      const status = unwrap(await ctx.engine.call('distill.status', {}));
      let trigger: DistillTrigger | null = null;
      if (ctx.trigger === 'demand') trigger = 'manual';
      else if (status.due) trigger = status.due;
      else if ((ctx.idleMs ?? 0) >= DISTILL_IDLE_MS && status.newEpisodes > 0 && (status.lastRun?.status !== 'failed' || status.sinceLastRun > 0)) trigger = 'idle';
      if (trigger === null) return null;
      if (status.paused) return ctx.trigger === 'demand' ? { skipped: 'paused' } : null;
      const outcome = await runDistillation({ engine: ctx.engine, provider: deps.provider(), trigger, progress: (f, step) => ctx.progress(f, step), signal: ctx.signal });
      if (outcome.state === 'skipped') return ctx.trigger === 'demand' ? { skipped: outcome.reason } : null;
      if (outcome.state === 'failed') throw new Error(outcome.code);
      const r = outcome.result;
      return {
        trigger,
        episodes: outcome.episodes,
        created: r.created.length,
        updated: r.updated.length,
        drifted: r.drifted.length,
        conflicts: r.conflicts.length,
        phrasedBy: outcome.phrasedBy,
      };
    },
  };
}
