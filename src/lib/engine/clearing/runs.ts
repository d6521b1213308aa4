import type { SqlDriver, SqlParam } from '../store/driver';

const QUEUE_PREFIX = 'after_reply:';

/**
 * Deletes the runs matching `where` (their traces, feedback and learning rows follow by foreign key;
 * episodes keep their row with the run id emptied — they are deleted by their own clear). Returns how many.
 */
export function deleteRuns(driver: SqlDriver, where: string, params: readonly SqlParam[]): number {
  return driver.run(`DELETE FROM context_runs WHERE ${where}`, params).changes;
}

/** After-reply work queued for runs that no longer exist has nothing left to do (turn/after-reply-queue.ts). */
export function forgetQueuedRuns(driver: SqlDriver): number {
  return driver.run(
    `DELETE FROM meta WHERE key >= ? AND key < ? AND substr(key, ${QUEUE_PREFIX.length + 1}) NOT IN (SELECT id FROM context_runs)`,
    [QUEUE_PREFIX, `${QUEUE_PREFIX}\uffff`],
  ).changes;
}
