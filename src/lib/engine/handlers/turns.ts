import type { Services } from '../services';
import type { Handlers } from './index';

type TurnMethods = 'turn.prepare' | 'turn.finish' | 'turn.afterReplyPending' | 'turn.afterReplyDone' | 'session.getMany';

/** One call per turn each way (issue 16), the after-reply queue, and the conversation rows a change touched. */
export function turnHandlers(s: Services): Handlers<TurnMethods> {
  return {
    'turn.prepare': (input) => s.turns.prepare(input),
    'turn.finish': (input) => s.turns.finish(input),
    'turn.afterReplyPending': (input) => s.afterReplyQueue.pending({ queuedBefore: s.env.clock.now() - input.olderThanMs, limit: input.limit }),
    'turn.afterReplyDone': ({ runId }) => ({ done: s.afterReplyQueue.done(runId) }),
    'session.getMany': (input) => s.sessions.getMany(input),
  };
}
