import { EngineError, unwrap } from '../../domain/errors';
import type { ModelProvider } from '../../domain/llm/types';
import { afterReply } from './after-reply';
import type { JobDefinition } from './types';

/** A queued job this old was not taken up by the window that queued it (closed, crashed, reloaded). */
export const STALE_AFTER_MS = 5 * 60_000;
const PER_RUN = 10;

/**
 * turn.finish queues each reply's after-reply work in the reply's own transaction; the page hands it to this
 * worker at once (afterReply). What a closed or crashed window left behind is done here: every minute, the
 * jobs older than STALE_AFTER_MS, with the model the page last used (rules when none is known). A job whose
 * messages were deleted since is dropped.
 */
export function afterReplyJob(provider: () => ModelProvider): JobDefinition {
  return {
    name: 'after-reply',
    periodMs: 60_000,
    onStartup: true,
    async run({ engine }) {
      const pending = unwrap(await engine.call('turn.afterReplyPending', { olderThanMs: STALE_AFTER_MS, limit: PER_RUN }));
      if (pending.length === 0) return null;
      let done = 0;
      let dropped = 0;
      for (const job of pending) {
        try {
          await afterReply({ engine, provider: provider(), input: job });
          done++;
        } catch (err) {
          if (!(err instanceof EngineError && err.code === 'NOT_FOUND')) throw err;
          unwrap(await engine.call('turn.afterReplyDone', { runId: job.runId }));
          dropped++;
        }
      }
      return { done, dropped };
    },
  };
}
