import { EngineError } from '../../domain/errors';
import type { WorkingMemory } from '../../domain/conversation/types';
import {
  applyAnalysis,
  applyUserTurn,
  isIdle,
  startWorkingMemory,
  WORKING_MEMORY_IDLE_MS,
} from '../../domain/conversation/working-memory';
import type { Clock } from '../../domain/clock';
import type { MessageRepo } from '../store/message-repo';
import type { SessionRepo } from '../store/session-repo';

/**
 * Seed 001 working memory lives in the DB worker's memory, one per active session (ARCHITECTURE §10):
 * created at the first message, updated every turn, dropped after 30 idle minutes (what matters is
 * archived first), and rebuilt from the recent turns if this worker was not the one that saw them.
 */
export function createWorkingMemoryRegistry(deps: {
  clock: Clock;
  sessions: SessionRepo;
  messages: MessageRepo;
  /** Called with a memory that is about to be dropped for idleness. */
  archive: (wm: WorkingMemory) => number;
}) {
  const live = new Map<string, WorkingMemory>();

  /** The user's messages of the last few turns before `beforeTurn`, oldest first. */
  const previousUserTexts = (sessionId: string, beforeTurn: number): string[] =>
    deps.messages
      .recentTurns(sessionId, 5)
      .filter((m) => m.role === 'user' && m.turnNo < beforeTurn)
      .map((m) => m.content);

  /** After a worker restart: replay the recent user messages (before `beforeTurn`) into a fresh memory. */
  function rebuild(sessionId: string, beforeTurn: number): WorkingMemory | null {
    const session = deps.sessions.find(sessionId);
    if (!session || session.turnCount === 0) return null;
    if (deps.clock.now() - session.lastActive > WORKING_MEMORY_IDLE_MS) return null;
    const texts = previousUserTexts(sessionId, beforeTurn);
    if (texts.length === 0) return null;
    let wm = startWorkingMemory(sessionId, session.createdAt);
    texts.forEach((text, i) => {
      wm = applyUserTurn(wm, { text, now: session.lastActive, recentUserTexts: texts.slice(Math.max(0, i - 2), i + 1) });
    });
    return { ...wm, turnCount: Math.min(session.turnCount, beforeTurn - 1), updatedAt: session.lastActive };
  }

  function expire(wm: WorkingMemory): number {
    live.delete(wm.sessionId);
    return deps.archive(wm);
  }

  return {
    /** Seed 001 "created on first message" / "updated on each turn"; call before storing the message. */
    onUserMessage(opts: { sessionId: string; text: string; now: number; turnNo: number }): WorkingMemory {
      let wm = live.get(opts.sessionId);
      if (wm && isIdle(wm, opts.now)) {
        expire(wm);
        wm = undefined;
      }
      wm ??= (opts.turnNo > 1 ? rebuild(opts.sessionId, opts.turnNo) : null) ?? startWorkingMemory(opts.sessionId, opts.now);
      const recentUserTexts = [...previousUserTexts(opts.sessionId, opts.turnNo).slice(-2), opts.text];
      // The session's own turn counter is the source of truth for turn_count.
      const next = { ...applyUserTurn(wm, { text: opts.text, now: opts.now, recentUserTexts }), turnCount: opts.turnNo };
      live.set(opts.sessionId, next);
      return next;
    },
    get(sessionId: string): WorkingMemory {
      deps.sessions.mustFind(sessionId);
      let wm = live.get(sessionId);
      if (wm && isIdle(wm, deps.clock.now())) {
        expire(wm);
        wm = undefined;
      }
      if (!wm) {
        const session = deps.sessions.mustFind(sessionId);
        const rebuilt = rebuild(sessionId, session.turnCount + 1);
        if (rebuilt) live.set(sessionId, (wm = { ...rebuilt, turnCount: session.turnCount }));
      }
      if (!wm) throw new EngineError('NOT_FOUND', 'That conversation has no active working memory (it was idle for over 30 minutes or has no messages).', { field: 'sessionId' });
      return wm;
    },
    /** The current topic, if the session has a live working memory (used for the 001 topic boost). */
    peek(sessionId: string): WorkingMemory | undefined {
      const wm = live.get(sessionId);
      return wm && !isIdle(wm, deps.clock.now()) ? wm : undefined;
    },
    update(sessionId: string, analysis: Omit<Parameters<typeof applyAnalysis>[1], 'now'>): WorkingMemory {
      const wm = this.get(sessionId);
      const next = applyAnalysis(wm, { ...analysis, now: deps.clock.now() });
      live.set(sessionId, next);
      return next;
    },
    /** Seed 001 "Working memory auto-cleanup": drops idle memories, archiving what matters. */
    sweep(): { removed: string[]; archived: number } {
      const now = deps.clock.now();
      const removed: string[] = [];
      let archived = 0;
      for (const wm of [...live.values()]) {
        if (!isIdle(wm, now)) continue;
        archived += expire(wm);
        removed.push(wm.sessionId);
      }
      return { removed, archived };
    },
    forget(sessionId: string): void {
      live.delete(sessionId);
    },
    /** memory.clearAll: no conversation keeps a working memory. */
    forgetAll(): void {
      live.clear();
    },
    /** Drops the memories of sessions that were deleted. */
    prune(): void {
      for (const id of [...live.keys()]) if (!deps.sessions.find(id)) live.delete(id);
    },
    size: () => live.size,
  };
}

export type WorkingMemoryRegistry = ReturnType<typeof createWorkingMemoryRegistry>;
