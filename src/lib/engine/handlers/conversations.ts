import { EngineError } from '../../domain/errors';
import type { Services } from '../services';
import type { Handlers } from './index';
import type { TwoStep } from '../protocol/define';

type Rolled = { created: number[]; sessions: number };

type ConversationMethods =
  | 'session.create'
  | 'session.list'
  | 'session.get'
  | 'session.update'
  | 'session.delete'
  | 'message.append'
  | 'message.list'
  | 'message.get'
  | 'message.update'
  | 'message.delete'
  | 'workingMemory.get'
  | 'workingMemory.update'
  | 'workingMemory.sweep'
  | 'summary.list'
  | 'summary.create'
  | 'summary.replace'
  | 'summary.roll'
  | 'summary.turns'
  | 'summary.pending';

export function conversationHandlers(s: Services): Handlers<ConversationMethods> {
  return {
    'session.create': (input) => {
      // Checked inside the write transaction, so two processes choosing the same id cannot both pass.
      if (input.id !== undefined && s.sessions.find(input.id))
        throw new EngineError('CONFLICT', 'A conversation with that `id` already exists.', { field: 'id' });
      return s.sessions.create(input);
    },
    'session.list': (input) => s.sessions.list(input),
    'session.get': ({ id }) => s.sessions.mustFind(id),
    'session.update': ({ id, ...patch }) => s.sessions.update(id, patch),
    'session.delete': ({ id }) => {
      const report = s.cleanup.run({ sessionId: id });
      s.workingMemory.forget(id);
      return report;
    },
    'message.append': (input) => s.conversation.append(input),
    'message.list': ({ sessionId, afterId, ...opts }) => {
      s.sessions.mustFind(sessionId);
      return afterId === undefined ? s.messages.list(sessionId, opts) : messagesAfter(s, { sessionId, afterId, limit: opts.limit });
    },
    'message.get': ({ id }) => s.messages.mustFind(id),
    'message.update': ({ id, ...patch }) => s.messages.update(id, patch),
    'message.delete': ({ id }) => {
      s.messages.delete(id);
      return { deleted: 1 };
    },
    'workingMemory.get': ({ sessionId }) => s.workingMemory.get(sessionId),
    'workingMemory.update': ({ sessionId, ...analysis }) => s.workingMemory.update(sessionId, analysis),
    'workingMemory.sweep': () => s.workingMemory.sweep(),
    'summary.list': ({ sessionId, kind }) => {
      s.sessions.mustFind(sessionId);
      return s.summaries.list(sessionId, kind);
    },
    'summary.create': ({ sessionId, fromTurn, toTurn }) => s.conversation.summarize(sessionId, fromTurn, toTurn),
    'summary.replace': ({ id, ...patch }) => s.summaries.replaceText(id, patch),
    // One conversation's blocks in the write; the pass over every conversation in slices after it (issue 16).
    'summary.roll': ({ sessionId }): TwoStep<Rolled | null, Rolled> => ({
      announceAfter: true,
      write: () => (sessionId ? s.rolling.rollDue(sessionId) : null),
      // A re-sent write whose answer expired: its blocks were made, nothing more is due for them.
      then: async (written) => written ?? (sessionId ? { created: [], sessions: 1 } : s.rolling.rollDueInSlices()),
    }),
    'summary.turns': ({ id }) => {
      const summary = s.summaries.mustFind(id);
      return s.messages.turns(summary.sessionId, summary.startTurn, summary.endTurn);
    },
    'summary.pending': ({ limit }) => s.summaries.extractive(limit),
  };
}

/**
 * The `limit` messages after `afterId` in its conversation, oldest first. Messages are appended in turn
 * order, so they are the next turns' messages: reading `limit` turns on from the anchor's turn (each
 * turn holds at least one message) is enough.
 */
function messagesAfter(s: Services, q: { sessionId: string; afterId: number; limit: number }) {
  const anchor = s.messages.find(q.afterId);
  if (!anchor || anchor.sessionId !== q.sessionId)
    throw new EngineError('NOT_FOUND', 'No message with that `afterId` in this conversation (it may have been deleted).', { field: 'afterId' });
  return s.messages
    .turns(q.sessionId, anchor.turnNo, anchor.turnNo + q.limit)
    .filter((m) => m.id > q.afterId)
    .slice(0, q.limit);
}
