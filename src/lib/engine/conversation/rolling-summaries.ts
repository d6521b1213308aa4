import { dueSummaryBlocks, summarizeTurns } from '../../domain/conversation/summarize';
import { EngineError } from '../../domain/errors';
import type { Summary } from '../../domain/conversation/types';
import type { EngineEnv } from '../env';
import type { MessageRepo } from '../store/message-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { SummaryRepo } from '../store/summary-repo';

/** Conversations a background pass looks at, most recently active first. */
const SESSIONS_PER_PASS = 50;

/**
 * 002 REQ-LTM-002 rolling summaries, kept off the write path: storing a turn never summarises (a block's
 * summary costs ~3× a plain turn, and 002's "单轮存储" is about the turn). Summaries are made when they are
 * needed — before a context is built for the conversation (engine/context) — and by the jobs worker's
 * periodic pass over every conversation (SC-LTM-003 "系统执行定期摘要").
 *
 *   turns 1 … n   ─▶ due blocks: complete blocks of `chat.summary_block` turns before the last
 *                    `chat.recent_full_turns`, once the conversation has `chat.summary_after` turns
 *                 ─▶ extractive summary per block (a model may later replace it: summary.replace)
 */
export function createRollingSummaries(deps: { env: Pick<EngineEnv, 'driver'>; messages: MessageRepo; summaries: SummaryRepo; settings: SettingsRepo }) {
  const { driver } = deps.env;

  function summarize(sessionId: string, startTurn: number, endTurn: number, kind: Summary['kind'] = 'rolling'): Summary | null {
    const turns = deps.messages.turns(sessionId, startTurn, endTurn);
    if (turns.length === 0) return null;
    return deps.summaries.upsert({ sessionId, kind, startTurn, endTurn, ...summarizeTurns(turns), method: 'extractive' });
  }

  /** Every block of this conversation that is due, in one transaction; returns the new summaries' ids. */
  function roll(sessionId: string): number[] {
    return driver.transaction(() => rollIn(sessionId));
  }

  function rollIn(sessionId: string): number[] {
    const state = driver.get<{ turnCount: number; firstTurn: number | null }>(
      'SELECT turn_count AS turnCount, (SELECT MIN(turn_no) FROM messages WHERE session_id = ?) AS firstTurn FROM sessions WHERE id = ?',
      [sessionId, sessionId],
    );
    if (!state || state.firstTurn === null) return [];
    const cfg = deps.settings.get();
    const due = dueSummaryBlocks({
      turnCount: state.turnCount,
      summarizedUpTo: deps.summaries.summarizedUpTo(sessionId),
      firstTurn: state.firstTurn,
      after: cfg['chat.summary_after'],
      block: cfg['chat.summary_block'],
      keepFull: cfg['chat.recent_full_turns'],
    });
    return due.flatMap((b) => summarize(sessionId, b.startTurn, b.endTurn)?.id ?? []);
  }

  /** The conversations with at least one due block (most recently active first). */
  function dueSessions(limit: number): string[] {
    const cfg = deps.settings.get();
    return driver
      .all<{ id: string }>(
        `SELECT id FROM (
           SELECT s.id, s.turn_count, s.last_active,
             MAX(COALESCE((SELECT MAX(end_turn) FROM summaries su WHERE su.session_id = s.id AND su.kind = 'rolling'), 0),
                 COALESCE((SELECT MIN(turn_no) FROM messages m WHERE m.session_id = s.id), 1) - 1) AS done
           FROM sessions s WHERE s.turn_count >= ?)
         WHERE turn_count - ? - done >= ? ORDER BY last_active DESC LIMIT ?`,
        [cfg['chat.summary_after'], cfg['chat.recent_full_turns'], cfg['chat.summary_block'], limit],
      )
      .map((r) => r.id);
  }

  return {
    summarize,
    roll,
    /** One conversation's due blocks, or (no id) those of the conversations that have any. */
    rollDue(sessionId?: string): { created: number[]; sessions: number } {
      if (sessionId && !driver.get('SELECT 1 FROM sessions WHERE id = ?', [sessionId]))
        throw new EngineError('NOT_FOUND', 'No conversation with that `sessionId`.', { field: 'sessionId' });
      const ids = sessionId ? [sessionId] : dueSessions(SESSIONS_PER_PASS);
      return { created: ids.flatMap(roll), sessions: ids.length };
    },
  };
}

export type RollingSummaries = ReturnType<typeof createRollingSummaries>;
