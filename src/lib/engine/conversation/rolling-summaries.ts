import { dueSummaryBlocks, summarizeTurns } from '../../domain/conversation/summarize';
import { EngineError } from '../../domain/errors';
import type { Summary } from '../../domain/conversation/types';
import type { Settings } from '../../domain/settings';
import type { EngineEnv } from '../env';
import type { MessageRepo } from '../store/message-repo';
import type { SettingsRepo } from '../store/settings-repo';
import type { SummaryRepo } from '../store/summary-repo';
import { SLICE_BUDGET_MS, yieldToQueue } from '../store/slices';

/** Conversations a background pass looks at, most recently active first. */
const SESSIONS_PER_PASS = 50;
/** Conversations (a rowid range) one step of the background pass looks through for due blocks. */
const SESSION_WINDOW = 256;

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

  /**
   * Every block of this conversation that is due, in one transaction; returns the new summaries' ids. `settings`:
   * as the caller already read them (a turn reads them once); absent: read here.
   */
  function roll(sessionId: string, settings?: Settings): number[] {
    return driver.transaction(() => rollIn(sessionId, settings));
  }

  function rollIn(sessionId: string, settings?: Settings): number[] {
    const state = driver.get<{ turnCount: number; firstTurn: number | null }>(
      'SELECT turn_count AS turnCount, (SELECT MIN(turn_no) FROM messages WHERE session_id = ?) AS firstTurn FROM sessions WHERE id = ?',
      [sessionId, sessionId],
    );
    if (!state || state.firstTurn === null) return [];
    const cfg = settings ?? deps.settings.get();
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

  /** The conversations with at least one due block among `range` (all: null), most recently active first. */
  const dueSql = (range: boolean) => `SELECT id, r, lastActive FROM (
           SELECT s.id, s.rowid AS r, s.turn_count, s.last_active AS lastActive,
             MAX(COALESCE((SELECT MAX(end_turn) FROM summaries su WHERE su.session_id = s.id AND su.kind = 'rolling'), 0),
                 COALESCE((SELECT MIN(turn_no) FROM messages m WHERE m.session_id = s.id), 1) - 1) AS done
           FROM sessions s WHERE s.turn_count >= $after${range ? ' AND s.rowid > $lo AND s.rowid <= $hi' : ''})
         WHERE turn_count - $keep - done >= $block ORDER BY lastActive DESC, r`;
  const dueParams = () => {
    const cfg = deps.settings.get();
    return { after: cfg['chat.summary_after'], keep: cfg['chat.recent_full_turns'], block: cfg['chat.summary_block'] };
  };
  type Due = { id: string; r: number; lastActive: number };

  function dueSessions(limit: number): string[] {
    return driver.all<Due>(`${dueSql(false)} LIMIT $limit`, { ...dueParams(), limit }).map((r) => r.id);
  }

  /**
   * The periodic pass over every conversation in bounded steps, the worker free between slices of ~20 ms (issue
   * 16: finding the due conversations read every conversation in one statement, 337 ms at a million turns): a
   * step looks through SESSION_WINDOW conversations (a rowid range) or rolls one conversation's due blocks (its
   * own transaction). The same conversations as `rollDue()`: the SESSIONS_PER_PASS most recently active of those
   * with a due block — a conversation that became due while the pass looked elsewhere waits for the next pass.
   */
  async function rollDueInSlices(opts: { budgetMs?: number; now?: () => number; window?: number; onSlice?: (steps: number) => void } = {}) {
    const now = opts.now ?? (() => performance.now());
    const budget = opts.budgetMs ?? SLICE_BUDGET_MS;
    const window = opts.window ?? SESSION_WINDOW;
    const last = driver.get<{ m: number | null }>('SELECT MAX(rowid) AS m FROM sessions')?.m ?? 0;
    const params = dueParams();
    let lo = 0;
    const due: Due[] = [];
    const pass: { chosen: string[] | null } = { chosen: null };
    const created: number[] = [];
    let next = 0;
    const step = (): boolean => {
      if (lo < last) {
        due.push(...driver.all<Due>(dueSql(true), { ...params, lo, hi: lo + window }));
        lo += window;
        return true;
      }
      const chosen = (pass.chosen ??= due
        .sort((a, b) => b.lastActive - a.lastActive || a.r - b.r)
        .slice(0, SESSIONS_PER_PASS)
        .map((d) => d.id));
      const id = chosen[next++];
      if (id === undefined) return false;
      created.push(...roll(id));
      return next < chosen.length;
    };
    for (let more = true; more; ) {
      const t0 = now();
      let steps = 0;
      do {
        more = step();
        steps++;
      } while (more && now() - t0 < budget);
      opts.onSlice?.(steps);
      if (more) await yieldToQueue();
    }
    return { created, sessions: pass.chosen?.length ?? 0 };
  }

  return {
    summarize,
    roll,
    rollDueInSlices,
    /** One conversation's due blocks, or (no id) those of the conversations that have any. */
    rollDue(sessionId?: string): { created: number[]; sessions: number } {
      if (sessionId && !driver.get('SELECT 1 FROM sessions WHERE id = ?', [sessionId]))
        throw new EngineError('NOT_FOUND', 'No conversation with that `sessionId`.', { field: 'sessionId' });
      const ids = sessionId ? [sessionId] : dueSessions(SESSIONS_PER_PASS);
      return { created: ids.flatMap((id) => roll(id)), sessions: ids.length };
    },
  };
}

export type RollingSummaries = ReturnType<typeof createRollingSummaries>;
