/**
 * feedback.record (seed 004 "采纳/拒绝触发偏好信号入库"): it only records — the event and, for a skill run,
 * the run's episode, in one transaction. It learns nothing inside that transaction (issue 17): the
 * preference learning pipeline is distillation in the jobs worker, which the recorded episode counts
 * towards (003 批量触发) and which `distillDue` says is due.
 *
 *   completed run? ─canceled─▶ CANCELED, timed out─▶ TIMEOUT, pending/failed─▶ CONFLICT (nothing stored)
 *   skill run ─▶ episode (episodes/outcome.ts) + feedback_events     chat run ─▶ feedback_events only
 */
import { classifyOutcome, feedbackActionOf, LARGE_REWRITE, SMALL_EDIT, type ImplicitSignal } from '../../domain/episodes/signals';
import { completedRun, createOutcomeRecorder } from '../episodes/outcome';
import type { ContextDeps } from './deps';
import type { FeedbackResult, SampleRef } from './types';

export interface FeedbackInput {
  runId: string;
  action: 'accept' | 'reject' | 'partial';
  sampleRefs: SampleRef[];
  editDistance?: number;
  /** What the model produced. */
  outputText?: string;
  /** What the user kept (accept/partial). */
  finalText?: string;
}

/** A partial without texts: the distance alone says how big the edit was (003 thresholds). */
function signalOfDistance(d: number): ImplicitSignal {
  return d < SMALL_EDIT ? 'weak-positive' : d > LARGE_REWRITE ? 'weak-negative' : 'mixed';
}

/** What an action says without the texts to compare. */
function textlessSignal(input: FeedbackInput): { signal: ImplicitSignal; editDistance: number | null } {
  if (input.action === 'reject') return { signal: 'strong-negative', editDistance: null };
  if (input.action === 'accept') return { signal: 'strong-positive', editDistance: 0 };
  return input.editDistance === undefined ? { signal: 'mixed', editDistance: null } : { signal: signalOfDistance(input.editDistance), editDistance: input.editDistance };
}

export function createFeedbackService(deps: ContextDeps) {
  const outcomes = createOutcomeRecorder(deps);

  return {
    /** Synchronous: runs inside the engine's write transaction. */
    record(input: FeedbackInput): FeedbackResult {
      const run = completedRun(deps, input.runId);
      const shown = input.outputText ?? input.finalText;
      if (run.kind === 'skill') {
        const bySignal = shown === undefined || (input.action === 'partial' && input.outputText === undefined);
        const res = outcomes.record({
          runId: run.id,
          candidates: shown === undefined ? [] : [shown],
          selectedIndex: input.action === 'reject' ? -1 : 0,
          ...(input.action !== 'reject' && input.finalText !== undefined && input.outputText !== undefined ? { finalText: input.finalText } : {}),
          sampleRefs: input.sampleRefs,
          ...(bySignal ? { signal: textlessSignal(input) } : {}),
        });
        const event = deps.feedback.list({ runId: run.id, limit: 1 })[0];
        if (!event) throw new Error('feedback event missing after recording');
        return { event, episodeId: res.episode.id, distillDue: res.distillDue };
      }
      const signal =
        input.action === 'reject'
          ? 'strong-negative'
          : input.action === 'partial' && input.editDistance !== undefined
            ? signalOfDistance(input.editDistance)
            : classifyOutcome({ candidates: shown === undefined ? [''] : [shown], selectedIndex: 0, finalText: input.finalText }).signal;
      const stored = deps.feedback.insert({
        runId: run.id,
        skillId: run.skillId,
        projectId: run.projectId,
        action: input.action ?? feedbackActionOf(signal),
        sampleRefs: input.sampleRefs,
        editDistance: input.editDistance ?? null,
        features: {},
        signal,
      });
      deps.env.log.info('feedback.recorded', { action: input.action, signal });
      const { features: _features, ...event } = stored;
      return { event, episodeId: null, distillDue: null };
    },
    list: (opts: { runId?: string; skillId?: string; limit: number }) => deps.feedback.list(opts),
    outcomes,
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
