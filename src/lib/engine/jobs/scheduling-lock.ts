/**
 * Scheduled jobs run in one tab at a time: the tab whose jobs worker holds the Web Lock JOBS_LOCK.
 *
 *   worker start ─▶ locks.request(JOBS_LOCK) ── waits while another tab holds it ──▶ granted ─▶ held for the
 *   worker's life (a closed or reloaded tab lets go at once) · onGranted() ─▶ the scheduler's pass runs now
 *
 * Issue 16: the lock used to be looked at on the scheduler's 15 s tick only, so after a reload (the old page still
 * held it at the new page's first tick) the start-up jobs waited for the next tick. Now the grant itself starts them.
 */
import { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler';

export const JOBS_LOCK = 'engram-jobs';

/** The part of the Web Locks API this needs (`navigator.locks`; a fake in tests). */
export interface LockRequester {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

/**
 * A scheduler that runs scheduled jobs only while this tab holds the jobs lock. The lock is asked for now and kept
 * once granted; the grant starts a scheduling pass at once (the start-up jobs, exactly once: passes never overlap).
 * Jobs asked for by name (`run`, `restart`) run in any tab.
 */
export function createLockedScheduler(locks: LockRequester, opts: Omit<SchedulerOptions, 'mayRunScheduled'>): Scheduler {
  let held = false;
  const scheduler = createScheduler({ ...opts, mayRunScheduled: () => held });
  void locks
    .request(JOBS_LOCK, () => {
      held = true;
      void scheduler.tick().catch(() => {});
      return new Promise<void>(() => {});
    })
    .catch(() => {});
  return scheduler;
}
