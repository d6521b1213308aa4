import { unwrap } from '../../domain/errors';
import type { JobDefinition } from './types';

/** How long one run may keep calling before it leaves the rest to the next tick. */
const RUN_BUDGET_MS = 5_000;
/** User messages per call: one short write transaction each. */
const PER_CALL = 50;

/**
 * Issue 14: after an import from another app, its conversations are recallable at once; memories are
 * extracted from the person's messages and rolling summaries made here, in the background, in short
 * calls the chat can slip between — and an import nobody drives any more is taken back. Nothing to do:
 * not recorded.
 */
export const importFollowUpJob: JobDefinition = {
  name: 'import-follow-up',
  periodMs: 15_000,
  onStartup: true,
  async run({ engine, progress, signal }) {
    const started = Date.now();
    const total = { sessions: 0, messages: 0, memories: 0, summaries: 0, abandoned: 0 };
    for (;;) {
      const r = unwrap(await engine.call('import.followUp', { limit: PER_CALL }));
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r[k];
      const left = r.remaining.messages;
      progress(left + total.messages > 0 ? total.messages / (left + total.messages) : null, 'jobs.step.import-follow-up');
      if (r.remaining.sessions === 0 || signal.aborted || Date.now() - started > RUN_BUDGET_MS) break;
    }
    return total.sessions + total.messages + total.abandoned === 0 ? null : total;
  },
};
