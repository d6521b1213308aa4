import { resumableTransaction, type SqlDriver } from './driver';
import { FTS_MERGE_PAGES, FTS_TABLES, mergeStep, type FtsTable } from './fts-merge';
import { ioSince, ioSnapshot } from './io-counters';
import { noteTimeline, timelineRecording } from './worker-timeline';
import { defaultSchedule } from './wal-keeper';

/**
 * FTS5's segments merged between calls, in a task of its own (issue 19), as the WAL keeper (wal-keeper.ts) does
 * checkpoints. With FTS5's automerge on, whichever COMMIT wrote the 64th leaf page since the last merge also merged
 * 64 × levels pages: the lifecycle benchmark's worst wait was a person's episode.record whose COMMIT wrote 316 WAL
 * pages (78.8 ms). The browser's engine now keeps automerge off on every index (fts-merge.ts `automergeAtOpen`,
 * EngineEnv.ftsMerging), so a person's write only adds its own small segment, and this keeper merges:
 *
 *   - after every write call the engine answers (`wrote`) it asks for one task (a MessageChannel turn, wal-keeper.ts's defaultSchedule:
 *     behind the calls that reached the worker before it, so those answer first);
 *   - the task does one bounded piece — FTS5's 'merge' of `pages` leaf pages on the first index, in turn, that has
 *     work (a level holding `usermerge`, 4, segments or more, or a merge in progress) — and, when it merged, asks
 *     for another task, so a large merge goes on a piece at a time with the calls that came meanwhile in between.
 *     When no index has anything to merge it stops until the next write. An index with nothing to merge costs one
 *     statement that writes nothing.
 *
 * The segment count stays bounded: each level holds fewer than `usermerge` segments once the keeper has caught up,
 * and FTS5's own backstop stays: 'crisismerge' (16) — a COMMIT that leaves 16 segments on one level merges that
 * level there and then, automerge or not. The keeper keeps the count far below it (a task runs after every write
 * and the level-0 segments a write adds are the first merged: FTS5 picks the level with the most segments unless a
 * merge in progress has more inputs), so that foreground merge stays a backstop. A merge cut short (the worker
 * died) is stored in the index and the next 'merge' carries it on; each piece is its own transaction, committed at
 * synchronous NORMAL (no flush of its own: see `task`).
 */
export interface FtsMergeKeeperOptions {
  tables?: readonly FtsTable[];
  /** Leaf pages one piece merges (FTS_MERGE_PAGES). */
  pages?: number;
  schedule?: (run: () => void) => void;
}

export interface FtsMergeKeeper {
  /** A write was answered: its segments are merged in a task after the calls already queued. */
  wrote(): void;
  /** No task runs any more (the engine closes its driver). */
  close(): void;
  /** Pieces that merged something, so far. */
  readonly pieces: number;
  /** Rows its pieces changed so far (SQLite's total_changes), which no view shows: the DB host leaves them out. */
  readonly changes: number;
}

export function keepSegmentsMerged(driver: SqlDriver, opts: FtsMergeKeeperOptions = {}): FtsMergeKeeper {
  const tables = opts.tables ?? FTS_TABLES;
  const pages = opts.pages ?? FTS_MERGE_PAGES;
  const schedule = opts.schedule ?? defaultSchedule();
  let queued = false;
  let closed = false;
  let turn = 0;
  let pieces = 0;
  let changes = 0;
  const totalChanges = () => driver.get<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0;

  const ask = (): void => {
    if (queued || closed || tables.length === 0) return;
    queued = true;
    schedule(task);
  };

  /** One bounded piece on the first index, from `turn` on, that has something to merge; true if it merged. */
  const piece = (): boolean => {
    for (let i = 0; i < tables.length; i++) {
      const k = (turn + i) % tables.length;
      if (mergeStep(driver, tables[k] as FtsTable, pages)) {
        turn = (k + 1) % tables.length;
        return true;
      }
    }
    return false;
  };

  const task = (): void => {
    queued = false;
    if (closed) return;
    const noted = timelineRecording();
    const io0 = noted ? ioSnapshot() : null;
    const t0 = noted ? performance.now() : 0;
    let merged = false;
    try {
      // At synchronous NORMAL (resumableTransaction): a merged piece is only the index reorganised, so it need not
      // pay a flush of its own (2 per piece in the lifecycle benchmark, 8–26 ms each on a loaded machine); the next
      // COMMIT at FULL syncs its frames with its own, and one lost to a power cut is merged again.
      const c0 = totalChanges();
      try {
        merged = resumableTransaction(driver, piece);
      } finally {
        changes += totalChanges() - c0;
      }
    } catch {
      // Busy or failing storage, a read-only database: the next write asks again.
    }
    if (noted) noteTimeline('keeper', t0, performance.now() - t0, 'merge', { ...ioSince(io0) });
    if (merged) {
      pieces++;
      ask();
    }
  };

  return {
    wrote: ask,
    close() {
      closed = true;
    },
    get pieces() {
      return pieces;
    },
    get changes() {
      return changes;
    },
  };
}
