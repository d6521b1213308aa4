import { isSyncBarrier, type SqlDriver } from './driver';
import { countedCheckpoint, ownPageWritesNow } from './io-counters';

/**
 * A WAL checkpoint in a slice of its own (issue 16). With `PRAGMA wal_autocheckpoint` the checkpoint runs inside
 * whichever COMMIT crosses the mark — during a long sliced job, one of the job's slices: its COMMIT then also
 * copies every page the WAL holds into the database file and flushes both, and a foreground call queued behind it
 * waits for all of that. Here the job checkpoints itself, between its slices: once its slices have written
 * `everyPages` pages to the WAL (the OPFS counters' ownPageWrites, io-counters.ts: a checkpoint's copies into
 * the database file do not count), the next
 * "slice" runs `PRAGMA wal_checkpoint(PASSIVE)` alone — runInSlices commits nothing there, counts it as a slice of
 * no steps (its time shows as that slice's COMMIT) and yields before and after it, so queued calls run between
 * the checkpoint and the slices around it. The WAL then stays well under the autocheckpoint mark, and no COMMIT
 * of the job pays for a checkpoint.
 *
 *   slice ─ yield ─ slice ─ yield ─ [checkpoint] ─ yield ─ slice …
 *
 * The wrapper changes nothing else: every other call goes to `driver` as is. Outside WAL mode (a rollback journal,
 * an in-memory database) the pragma does nothing. Where pages are not counted (Node: better-sqlite3) it never
 * checkpoints, and SQLite's autocheckpoint does as before: natively (bench/speed/reindex-ab.ts --wal 200, 20,000
 * turns, load ~10) a checkpoint after every slice cost more in fsyncs than it saved — the longest gap 186 and 324 ms
 * against 95 and 112 ms, the job 1.7× as long, though the longest slice's CPU time fell (24/16 against 33/18 ms).
 */
export interface CheckpointingDriver {
  driver: SqlDriver;
  /** The checkpoints run so far, each with the WAL frames it found and copied (SQLite's own answer; -1 outside WAL mode). */
  checkpoints: () => readonly { log: number; checkpointed: number }[];
}

export function checkpointBetweenSlices(
  driver: SqlDriver,
  opts: { everyPages?: number; pagesWritten?: () => number | null; now?: () => number } = {},
): CheckpointingDriver {
  const everyPages = opts.everyPages ?? CHECKPOINT_EVERY_PAGES;
  const pagesWritten = opts.pagesWritten ?? ownPageWritesNow;
  const done: { log: number; checkpointed: number }[] = [];
  let since = pagesWritten();
  let due = false;
  let depth = 0;
  const wrapped: SqlDriver = {
    kind: driver.kind,
    exec: (sql) => driver.exec(sql),
    run: (sql, params) => driver.run(sql, params),
    all: (sql, params) => driver.all(sql, params),
    get: (sql, params) => driver.get(sql, params),
    close: () => driver.close(),
    transaction<T>(fn: () => T): T {
      // Not in place of a job's closing COMMIT at FULL (driver.ts's syncCommitted): the checkpoint waits for the next slice.
      if (depth === 0 && due && !isSyncBarrier(fn)) {
        due = false;
        // Listed with the slow transactions when it is slow (io-counters.ts): a queued call waits behind it as long.
        const r = countedCheckpoint(() => driver.get<{ busy: number; log: number; checkpointed: number }>('PRAGMA wal_checkpoint(PASSIVE)'), opts.now);
        done.push({ log: r?.log ?? -1, checkpointed: r?.checkpointed ?? -1 });
        since = pagesWritten();
        // runInSlices reads this as "more to do": the job's next slice comes after the yield.
        return true as T;
      }
      depth++;
      try {
        return driver.transaction(fn);
      } finally {
        depth--;
        if (depth === 0) {
          const now = pagesWritten();
          due = now !== null && since !== null && now - since >= everyPages;
        }
      }
    },
  };
  return { driver: wrapped, checkpoints: () => done };
}

/**
 * WAL pages after which a sliced job checkpoints between its slices: about a slice's worth (the lifecycle's and
 * the reindex's page budget, 64), so a checkpoint copies one or two slices' pages, never the 200-frame mark's.
 */
export const CHECKPOINT_EVERY_PAGES = 64;
