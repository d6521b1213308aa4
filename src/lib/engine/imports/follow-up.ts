import type { Logger } from '../../domain/log';
import type { RollingSummaries } from '../conversation/rolling-summaries';
import type { ExtractionService } from '../memory/extraction-service';
import type { ImportRepo } from '../store/import-repo';

/**
 * After an import (issue 14): what was imported is recallable at once (full-text and symbol indexes are
 * written with each message); what Engram *learns* from it comes afterwards, in the background, in
 * bounded write transactions so the chat never waits behind it:
 *
 *   import_items (not followed up) ─▶ each user message: memory.extract (rules: seed 000 原子记忆异步写入)
 *                                  ─▶ the conversation's due rolling summaries (002 REQ-LTM-002)
 *                                  ─▶ followed_up
 *
 * The jobs worker calls it until nothing is left (engine/jobs/import-follow-up-job.ts); the CLI calls it
 * after `engram import`, `engram mcp` while it idles.
 */
export interface FollowUpReport {
  sessions: number;
  messages: number;
  memories: number;
  summaries: number;
  /** Taken back because no step touched them for too long. */
  abandoned: number;
  remaining: { sessions: number; messages: number };
}

const CHANGED = new Set(['add', 'update', 'supersede']);

export function createFollowUp(deps: {
  repo: ImportRepo;
  extraction: ExtractionService;
  rolling: RollingSummaries;
  log: Logger;
  sweepAbandoned: () => number;
}) {
  return {
    /** At most `limit` user messages in this call (one write transaction). */
    run(limit: number): FollowUpReport {
      const abandoned = deps.sweepAbandoned();
      let budget = limit;
      const report = { sessions: 0, messages: 0, memories: 0, summaries: 0, abandoned };
      for (const item of deps.repo.pendingItems(Math.max(1, limit))) {
        if (budget <= 0) break;
        const ids = deps.repo.userMessagesFrom(item.sessionId, item.nextMessageId, budget + 1);
        const now = ids.slice(0, budget);
        for (const id of now) {
          const r = deps.extraction.extract({ sessionId: item.sessionId, userMessageId: id });
          report.memories += r.decisions.filter((d) => CHANGED.has(d.kind)).length;
        }
        report.messages += now.length;
        budget -= now.length;
        const finished = ids.length <= now.length;
        if (finished) {
          report.summaries += deps.rolling.roll(item.sessionId).length;
          report.sessions++;
        }
        deps.repo.advance(item, finished ? Number.MAX_SAFE_INTEGER : (ids[now.length] as number), finished);
      }
      const remaining = deps.repo.pendingCount();
      if (report.sessions || report.messages) deps.log.info('import.followed-up', { ...report, remaining: remaining.sessions });
      return { ...report, remaining };
    },
  };
}

export type FollowUp = ReturnType<typeof createFollowUp>;
