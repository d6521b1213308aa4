import type { SqlDriver } from '../store/driver';
import type { AfterReplyJob } from './types';

/**
 * The after-reply work turn.finish queues, one `meta` row per reply, written in the reply's own transaction: a
 * reply stored is a reply whose memories will be extracted, even if the window closes before the jobs worker
 * gets to it. The jobs worker marks a job done (the row goes); what is left behind is taken up again by its
 * periodic pass (jobs/after-reply-job.ts).
 */
const PREFIX = 'after_reply:';

export function createAfterReplyQueue(driver: SqlDriver) {
  return {
    push(job: AfterReplyJob): void {
      driver.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [PREFIX + job.runId, JSON.stringify(job)]);
    },
    /** Jobs queued at or before `queuedBefore`, oldest first. */
    pending(opts: { queuedBefore: number; limit: number }): AfterReplyJob[] {
      return driver
        .all<{ value: string }>("SELECT value FROM meta WHERE key >= ? AND key < ? AND json_extract(value, '$.queuedAt') <= ? ORDER BY json_extract(value, '$.queuedAt') LIMIT ?", [
          PREFIX,
          `${PREFIX}\uffff`,
          opts.queuedBefore,
          opts.limit,
        ])
        .map((r) => JSON.parse(r.value) as AfterReplyJob);
    },
    done(runId: string): boolean {
      return driver.run('DELETE FROM meta WHERE key = ?', [PREFIX + runId]).changes > 0;
    },
  };
}

export type AfterReplyQueue = ReturnType<typeof createAfterReplyQueue>;
