import type { SqlDriver, SqlParams } from './driver';
import { countedCheckpoint, ioSince, ioSnapshot } from './io-counters';
import { noteTimeline, timelineRecording } from './worker-timeline';

/**
 * The WAL checkpointed between calls, in a task of its own (issue 19). With `PRAGMA wal_autocheckpoint = N` SQLite
 * checkpoints inside whichever COMMIT leaves the WAL at N frames or more: a person's episode.record then also copies
 * the WAL's ~200 pages into the database file and flushes it (47–55 ms in the lifecycle benchmark). Here the
 * connection's autocheckpoint mark is moved far out (a backstop: open-wasm.ts) and the keeper does it instead:
 *
 *   - after every statement or transaction at the top level, it reads how many frames the WAL holds (`framesNow`:
 *     io-counters.ts's walFramesNow in the browser — the frame number of the last page written into the WAL);
 *   - at `soonFrames` or more it schedules one `PRAGMA wal_checkpoint(PASSIVE)` in a task of its own (`schedule`:
 *     setTimeout 0), so the call that wrote has its answer first and the checkpoint copies only a slice's worth;
 *   - at `mustFrames` or more while that task is still waiting for its turn (calls back to back) it checkpoints at
 *     once, after the COMMIT, before the call answers — what the autocheckpoint did, so the WAL stays bounded
 *     whatever the tasks do. A WAL taken past `mustFrames` by one COMMIT, with no task waiting, gets a task first.
 *
 * The WAL then never holds more than `mustFrames` + two transactions' frames. A checkpoint only copies committed
 * pages from the WAL into the database file; a COMMIT is durable at synchronous=FULL with or without it, and a WAL
 * left behind by a crash is replayed at the next open. SQLite starts the WAL again from its beginning at the first
 * write after a checkpoint that copied all of it, so until then the frame count read is the old one: the keeper
 * takes the WAL as empty while no page was written since such a checkpoint (`pagesWritten`).
 *
 * Where frames are not counted (`framesNow` answers null: Node, an in-memory database) the keeper stays out and
 * the caller must keep SQLite's autocheckpoint on (see `active`).
 */
export interface WalKeeperOptions {
  /** The frames the WAL holds now (its mxFrame), or null where that is not known. */
  framesNow: () => number | null;
  /** A count that grows with every page written into the WAL (io-counters.ts's walPageWrites). */
  pagesWritten: () => number | null;
  soonFrames?: number;
  mustFrames?: number;
  schedule?: (run: () => void) => void;
  now?: () => number;
}

export interface WalKeeper {
  driver: SqlDriver;
  /** The keeper checkpoints this connection: its autocheckpoint mark can move out of the way. False where frames are not counted. */
  active: boolean;
  /** The checkpoints so far: where they ran (a task of their own, or at once) and SQLite's answer (frames found, copied). */
  checkpoints: () => readonly { when: 'soon' | 'must'; log: number; checkpointed: number }[];
}

/** Frames after which a checkpoint is scheduled in a task of its own: a slice's worth (checkpoint-slices.ts's 64 pages). */
export const WAL_SOON_FRAMES = 64;
/** Frames after which it runs at once: under the 200 the autocheckpoint had, so nothing waits longer than it did. */
export const WAL_MUST_FRAMES = 160;

/** How many of the answers kept: enough for a test or a report, never a growing list. */
const KEPT = 200;

export function keepWalSmall(driver: SqlDriver, opts: WalKeeperOptions): WalKeeper {
  const soonFrames = opts.soonFrames ?? WAL_SOON_FRAMES;
  const mustFrames = opts.mustFrames ?? WAL_MUST_FRAMES;
  const schedule = opts.schedule ?? ((run: () => void) => void setTimeout(run, 0));
  const done: { when: 'soon' | 'must'; log: number; checkpointed: number }[] = [];
  const active = opts.framesNow() !== null && opts.pagesWritten() !== null;
  let depth = 0;
  let queued = false;
  /** walPageWrites when the last checkpoint copied the whole WAL: no page since means the WAL starts again. */
  let emptiedAt: number | null = null;

  const frames = (): number => {
    const pages = opts.pagesWritten();
    if (emptiedAt !== null && pages === emptiedAt) return 0;
    emptiedAt = null;
    return opts.framesNow() ?? 0;
  };

  const checkpoint = (when: 'soon' | 'must'): void => {
    // Noted on the worker timeline when a benchmark keeps it (a checkpoint is no transaction: the stall probe's list of those misses it).
    const noted = timelineRecording();
    const io0 = noted ? ioSnapshot() : null;
    const t0 = noted ? performance.now() : 0;
    const r = countedCheckpoint(() => driver.get<{ busy: number; log: number; checkpointed: number }>('PRAGMA wal_checkpoint(PASSIVE)'), opts.now);
    if (noted) noteTimeline('keeper', t0, performance.now() - t0, when, { frames: r?.log ?? -1, ...ioSince(io0) });
    const log = r?.log ?? -1;
    const checkpointed = r?.checkpointed ?? -1;
    done.push({ when, log, checkpointed });
    if (done.length > KEPT) done.shift();
    if (r && r.busy === 0 && log >= 0 && checkpointed === log) emptiedAt = opts.pagesWritten();
  };

  const soon = (): void => {
    queued = false;
    // A transaction of a caller still open (cannot be, between tasks: the driver is synchronous) or already small.
    if (depth > 0 || frames() < soonFrames) return;
    try {
      checkpoint('soon');
    } catch {
      // Busy or failing storage: the next write's check tries again (and `mustFrames` at once).
    }
  };

  const after = (): void => {
    if (depth > 0) return;
    const n = frames();
    // At once only when the task already asked for had no turn (calls back to back). A single large COMMIT (an FTS5
    // automerge: 200–340 pages) that takes the WAL past the mark by itself gets its task like any other: its call
    // answers first (the lifecycle benchmark's worst waits were such a COMMIT with a checkpoint of ~400 frames on top).
    if (n >= mustFrames && queued) {
      try {
        checkpoint('must');
      } catch {
        // The call's own work is committed and stays so: the next top-level call tries again.
      }
    } else if (n >= soonFrames && !queued) {
      queued = true;
      schedule(soon);
    }
  };

  const top = <T>(run: () => T): T => {
    if (!active) return run();
    depth++;
    let ok = false;
    try {
      const result = run();
      ok = true;
      return result;
    } finally {
      depth--;
      // A failed statement may have written nothing; a failed checkpoint must not hide the statement's own error.
      if (ok) after();
    }
  };

  const wrapped: SqlDriver = {
    kind: driver.kind,
    exec: (sql) => top(() => driver.exec(sql)),
    run: (sql, params) => top(() => driver.run(sql, params)),
    all<T>(sql: string, params?: SqlParams): T[] {
      return top(() => driver.all<T>(sql, params));
    },
    get<T>(sql: string, params?: SqlParams): T | undefined {
      return top(() => driver.get<T>(sql, params));
    },
    transaction<T>(fn: () => T): T {
      return top(() => driver.transaction(fn));
    },
    close: () => driver.close(),
  };
  return { driver: wrapped, active, checkpoints: () => done };
}
