/**
 * One call per chat turn each way (issue 16): before, a turn cost the model 5–6 sequential round trips
 * (session.create, message.append, context.build, settings.get, …) and after it 2 more (message.append,
 * run.complete) — now:
 *
 *   turn.prepare ─ write: (new conversation) + the user's message (or, on a retry, its old replies removed),
 *                │        committed without a flush (synchronous=NORMAL)
 *                └ then:  context.build for it ─▶ the request to send (or why there is none, as data); the run's
 *                         COMMIT at FULL flushes the WAL, the message's frames with it, before the answer
 *   … the UI streams the reply (engine/client/generation-run.ts) …
 *   turn.finish  ─ write: the reply (if any text) + run.complete + the after-reply work queued, one transaction
 *
 * A skill run uses context.build and turn.finish (its output is not a message, so only the run completes).
 */
import { EngineError, type IpcError } from '../../domain/errors';
import type { Message, MessageStatus, Session } from '../../domain/conversation/types';
import type { ConversationService } from '../conversation/conversation-service';
import type { ContextService } from '../context/context-service';
import type { RunService } from '../context/run-service';
import type { RunStatus } from '../context/types';
import type { EngineEnv } from '../env';
import type { TwoStep } from '../protocol/define';
import type { MessageRepo } from '../store/message-repo';
import type { SessionRepo } from '../store/session-repo';
import type { SettingsRepo } from '../store/settings-repo';
import { syncCommitted } from '../store/driver';
import type { RunRepo } from '../store/run-repo';
import type { AfterReplyQueue } from './after-reply-queue';
import type { FinishedTurn, PreparedTurn } from './types';
import type { LayerId } from '../../domain/context';

export interface PrepareInput {
  sessionId?: string;
  projectId?: string;
  content?: string;
  retryOf?: number;
  requestId?: string;
  locale: 'en' | 'zh-CN';
  tokenRatio?: number;
  budgets?: Partial<Record<LayerId, number>>;
}

export type TurnOutcome = Exclude<RunStatus, 'pending'>;

export interface FinishInput {
  runId: string;
  outcome: TurnOutcome;
  text: string;
  userMessageId?: number;
  model?: string;
  errorCode?: string;
  toolMemoryIds: string[];
}

interface Written {
  session: Session;
  message: Message;
  created: boolean;
  removed: number[];
}

const MESSAGE_STATUS: Record<TurnOutcome, MessageStatus> = { completed: 'complete', canceled: 'stopped', failed: 'failed', timeout: 'failed' };

export function createTurnService(deps: {
  env: EngineEnv;
  sessions: SessionRepo;
  messages: MessageRepo;
  conversation: ConversationService;
  settings: SettingsRepo;
  context: ContextService;
  runs: RunService;
  runRepo: RunRepo;
  queue: AfterReplyQueue;
}) {
  const { env, sessions, messages, conversation } = deps;

  function writeUserTurn(input: PrepareInput): Written {
    if (input.retryOf !== undefined) {
      const message = messages.mustFind(input.retryOf);
      if (message.role !== 'user') throw new EngineError('INVALID_ARGUMENT', 'Invalid `retryOf`: name the user message to answer again', { fields: ['retryOf'] });
      if (input.sessionId !== undefined && message.sessionId !== input.sessionId)
        throw new EngineError('INVALID_ARGUMENT', 'Invalid `retryOf`: the message belongs to another conversation', { fields: ['retryOf'] });
      // The replies to it go: the new one takes their place.
      const removed = env.driver
        .all<{ id: number }>("SELECT id FROM messages WHERE session_id = ? AND id > ? AND role = 'assistant' AND turn_no = ?", [message.sessionId, message.id, message.turnNo])
        .map((r) => r.id);
      for (const id of removed) messages.delete(id);
      return { session: sessions.mustFind(message.sessionId), message, created: false, removed };
    }
    const created = input.sessionId === undefined;
    const session = created ? sessions.create({ projectId: input.projectId ?? null }) : sessions.mustFind(input.sessionId as string);
    const stored = conversation.append({ sessionId: session.id, role: 'user', content: input.content as string, status: 'complete' });
    return { session: sessions.mustFind(session.id), message: stored.message, created, removed: [] };
  }

  return {
    prepare(input: PrepareInput): TwoStep<Written, PreparedTurn> {
      return {
        write: () => writeUserTurn(input),
        // One flush a turn, not two: the message commits without syncing the WAL, and the run's COMMIT (at FULL)
        // syncs both before the turn is answered — or, with no run stored, syncCommitted does (below).
        syncInThen: true,
        async then(written) {
          if (!written)
            throw new EngineError('CONFLICT', 'This turn (its op id) was prepared before and its answer is gone; send the message again.', { field: 'opId' });
          let synced = false;
          try {
            // Read once for the whole turn (the build, its rolling summaries and memory retrieval used to read them again).
            const settings = deps.settings.get();
            let context: PreparedTurn['context'];
            try {
              const run = await deps.context.build({
                kind: 'chat',
                sessionId: written.session.id,
                message: written.message.content,
                excludeMessageId: written.message.id,
                locale: input.locale,
                settings,
                ...(input.requestId ? { requestId: input.requestId } : {}),
                ...(input.tokenRatio !== undefined ? { tokenRatio: input.tokenRatio } : {}),
                ...(input.budgets ? { budgets: input.budgets } : {}),
              });
              // The run's transaction committed at the connection's level (FULL), so the message's frames are synced too.
              synced = true;
              context = { ok: true, run };
            } catch (err) {
              // The message is stored whatever happens to the build: a stopped or failed build is part of the answer.
              if (!(err instanceof EngineError)) throw err;
              const error: IpcError = err.details ? { code: err.code, message: err.message, details: err.details } : { code: err.code, message: err.message };
              context = { ok: false, error };
            }
            if (!synced) {
              syncCommitted(env.driver);
              synced = true;
            }
            return { ...written, context, agenticSearch: settings['memory.enable_agentic_search'] };
          } finally {
            // Thrown before the sync (an internal error, a failed COMMIT of the run): the message is made durable
            // anyway; a failing sync here never replaces the first error.
            if (!synced) {
              try {
                syncCommitted(env.driver);
              } catch {
                /* the first error says more; the message's frames are written, only not synced */
              }
            }
          }
        },
      };
    },

    finish(input: FinishInput): FinishedTurn {
      const run = deps.runRepo.mustFind(input.runId);
      const keep = input.text.trim() !== '' && run.sessionId !== null;
      let message: Message | null = null;
      if (keep) {
        const memoryIds = [...new Set([...run.memoryIds, ...input.toolMemoryIds])].slice(0, 100);
        message = conversation.append({
          sessionId: run.sessionId as string,
          role: 'assistant',
          content: input.text,
          status: MESSAGE_STATUS[input.outcome],
          meta: {
            ...(input.model !== undefined ? { model: input.model } : {}),
            memoryIds,
            runId: run.id,
            ...(input.errorCode && input.outcome !== 'completed' && input.outcome !== 'canceled' ? { errorCode: input.errorCode } : {}),
          },
        }).message;
      }
      const summary = deps.runs.complete({ runId: run.id, status: input.outcome, ...(message ? { messageId: message.id } : {}) });
      let afterReply: FinishedTurn['afterReply'] = null;
      if (run.sessionId !== null && input.userMessageId !== undefined && input.outcome === 'completed') {
        const user = messages.mustFind(input.userMessageId);
        if (user.sessionId !== run.sessionId || user.role !== 'user')
          throw new EngineError('INVALID_ARGUMENT', 'Invalid `userMessageId`: not a user message of the run’s conversation', { fields: ['userMessageId'] });
        afterReply = {
          runId: run.id,
          sessionId: run.sessionId,
          userMessageId: user.id,
          ...(message ? { assistantMessageId: message.id } : {}),
          queuedAt: env.clock.now(),
        };
        deps.queue.push(afterReply);
      }
      return { message, run: summary, afterReply };
    },
  };
}

export type TurnService = ReturnType<typeof createTurnService>;
