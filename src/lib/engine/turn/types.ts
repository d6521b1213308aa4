/**
 * What the turn calls return (contract section "turns", issue 16): one call prepares a turn, one finishes it.
 */
import type { IpcError } from '../../domain/errors';
import type { Message, Session } from '../../domain/conversation/types';
import type { ContextBuildResult, RunSummary } from '../context/types';

export interface PreparedTurn {
  session: Session;
  /** The user's message, stored before the context was built (or, on a retry, the one answered again). */
  message: Message;
  /** The conversation was made by this call (the first message of a new chat). */
  created: boolean;
  /** On a retry: the replies to `message` that were removed. */
  removed: number[];
  /** The request to send, or why there is none (the build was stopped, a source failed fatally): data, not an error. */
  context: { ok: true; run: ContextBuildResult } | { ok: false; error: IpcError };
  /** memory.enable_agentic_search, read with the build, so the model can be offered search_memories without another call. */
  agenticSearch: boolean;
}

/** What the jobs worker does after a reply (memory extraction, summaries), queued by turn.finish. */
export interface AfterReplyJob {
  runId: string;
  sessionId: string;
  userMessageId: number;
  assistantMessageId?: number;
  queuedAt: number;
}

export interface FinishedTurn {
  /** The stored reply; null when there was no text to keep (no model, nothing streamed) or the run was a skill's. */
  message: Message | null;
  run: RunSummary;
  /** The after-reply work queued for the jobs worker, or null (a skill run, no user message). */
  afterReply: AfterReplyJob | null;
}
