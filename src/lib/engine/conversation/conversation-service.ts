import { heuristicSessionSummary } from '../../domain/conversation/session-title';
import type { Message, MessageMeta, MessageStatus, Role } from '../../domain/conversation/types';
import { EngineError } from '../../domain/errors';
import type { EngineEnv } from '../env';
import type { MessageRepo } from '../store/message-repo';
import type { SessionRepo } from '../store/session-repo';
import type { RollingSummaries } from './rolling-summaries';
import type { WorkingMemoryRegistry } from './working-memory-registry';

export interface ConversationStoreResult {
  message: Message;
  /** 002 memory_store: turn_id, conversation_id, symbols_extracted, stored_at */
  turnId: number;
  conversationId: string;
  symbolsExtracted: string[];
  storedAt: number;
}

export interface SummarizeResult {
  summaryId: number;
  conversationId: string;
  turnsSummarized: number[];
  summary: string;
  keySymbols: string[];
  keyDecisions: string[];
}

/**
 * Storing turns and keeping what follows from them (session title, working memory) in step. Rolling
 * summaries are not made here (see rolling-summaries.ts): a turn is stored as quickly as possible.
 */
export function createConversationService(deps: {
  env: EngineEnv;
  sessions: SessionRepo;
  messages: MessageRepo;
  rolling: RollingSummaries;
  workingMemory: WorkingMemoryRegistry;
}) {
  const { env, sessions, messages, rolling, workingMemory } = deps;

  return {
    append(input: { sessionId: string; role: Role; content: string; status: MessageStatus; meta?: MessageMeta }): ConversationStoreResult {
      const session = sessions.mustFind(input.sessionId);
      const now = env.clock.now();
      let turnNo: number;
      if (input.role === 'user' || session.turnCount === 0) {
        turnNo = sessions.openTurn(session.id, now);
      } else {
        turnNo = session.turnCount;
        sessions.touch(session.id, now);
      }
      if (input.role === 'user') workingMemory.onUserMessage({ sessionId: session.id, text: input.content, now, turnNo });
      const { message, symbols } = messages.insert({ ...input, turnNo, createdAt: now, meta: input.meta });

      // A conversation is named by its first question at once (with no model there may never be a reply) …
      if (input.role === 'user' && turnNo === 1 && !session.title) {
        sessions.update(session.id, { title: heuristicSessionSummary(input.content, '').title });
      }
      // … and gets its seed-000 summary (title + snippet) after the first reply; a name the user chose stays.
      if (input.role === 'assistant' && input.status === 'complete' && session.summarizedAt === null) {
        const first = messages.firstExchange(session.id);
        const { title, snippet } = heuristicSessionSummary(first.user?.content ?? '', input.content);
        const userNamed = session.title !== '' && session.title !== heuristicSessionSummary(first.user?.content ?? '', '').title;
        sessions.update(session.id, { title: userNamed ? session.title : title, snippet, summarizedAt: now });
      }
      return {
        message,
        turnId: message.id,
        conversationId: session.id,
        symbolsExtracted: symbols.map((s) => s.symbol),
        storedAt: now,
      };
    },
    /** 002 memory_summarize: an explicit range, summarised now (extractively; the model may refine it). */
    summarize(sessionId: string, fromTurn: number, toTurn: number): SummarizeResult {
      sessions.mustFind(sessionId);
      if (toTurn < fromTurn) throw new EngineError('INVALID_ARGUMENT', 'Invalid `toTurn`: must not be before `fromTurn`.', { fields: ['toTurn'] });
      const s = rolling.summarize(sessionId, fromTurn, toTurn);
      if (!s) throw new EngineError('NOT_FOUND', 'There are no turns in that range (`fromTurn`–`toTurn`).', { fields: ['fromTurn', 'toTurn'] });
      return {
        summaryId: s.id,
        conversationId: sessionId,
        turnsSummarized: Array.from({ length: s.endTurn - s.startTurn + 1 }, (_, i) => s.startTurn + i),
        summary: s.summary,
        keySymbols: s.keySymbols,
        keyDecisions: s.keyDecisions,
      };
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
