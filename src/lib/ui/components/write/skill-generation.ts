/**
 * A skill run on the generation module (issue 16): context.build (one call) → stream → turn.finish (one call: the
 * run completes, canceled, failed or timed out — a skill's output is not a message, so nothing else is stored).
 * Stop, model failures and a worker restart mid-stream are handled by engine/client/generation-run.ts, as for a
 * chat turn. SkillRunner (skill-run.svelte.ts) drives every run through here and renders the phases.
 *
 * `again`: a further version of a run already finished (003 candidates) — no build, the same request streamed
 * once more, and no finish (the run's status stays what the first version made it).
 */
import { budgetsForWindow } from '../../../domain/context/window-budgets';
import type { ModelSettings } from '../../../domain/llm/settings';
import type { ModelProvider } from '../../../domain/llm/types';
import { startGeneration, type Generation, type GenerationPhase } from '../../../engine/client/generation-run';
import type { Input } from '../../../engine/protocol/contract';
import type { ContextBuildResult } from '../../../engine/context/types';
import type { WriteDeps } from './write-deps';
import { memoryStatus } from '../../app/memory-status.svelte';

export type SkillBuild = Omit<Input<'context.build'>, 'kind' | 'requestId' | 'locale' | 'tokenRatio' | 'budgets'>;

export function startSkillGeneration(
  opts: {
    deps: Pick<WriteDeps, 'engine' | 'locale' | 'now'>;
    provider: ModelProvider;
    settings: ModelSettings;
    onPhase?: (phase: GenerationPhase) => void;
    onText?: (text: string) => void;
    /** Right after the build answered with a run (the inspector can show it while the model writes). */
    onPrepared?: (built: ContextBuildResult) => void;
  } & ({ build: SkillBuild; again?: undefined } | { again: ContextBuildResult; build?: undefined }),
): Generation<ContextBuildResult> {
  const { deps, settings } = opts;
  const again = opts.again;
  return startGeneration<ContextBuildResult>(
    { engine: deps.engine, provider: opts.provider, clock: { now: deps.now } },
    {
      prepare: async (requestId) =>
        again
          ? { ok: true as const, data: again }
          : deps.engine.call('context.build', {
              ...(opts.build as SkillBuild),
              kind: 'skill',
              requestId,
              locale: deps.locale(),
              tokenRatio: settings.tokenRatio,
              // Per model (004): the layers are cut to fit this model's context window, with room for the reply.
              budgets: budgetsForWindow(settings.contextWindow),
            }),
      runOf: (built) => ({ ok: true, run: { runId: built.runId, messages: built.messages, agentic: false } }),
      onPrepared: (built) => {
        if (!again) memoryStatus.note(built.memoryDegraded);
        opts.onPrepared?.(built);
      },
      model: settings.model,
      finishes: !again,
      ...(opts.onPhase ? { onPhase: opts.onPhase } : {}),
      ...(opts.onText ? { onText: opts.onText } : {}),
    },
  );
}
