import type { SqlDriver, SqlParams } from './driver';
import { countedCheckpoint, ioSince, ioSnapshot } from './io-counters';
import { noteTimeline, timelineRecording } from './worker-timeline';
import { macrotaskTurns } from '../admission';

/**
 * The WAL checkpointed between calls, in a task of its own (issue 19). With `PRAGMA wal_autocheckpoint = N` SQLite
 * checkpoints inside whichever COMMIT leaves the WAL at N frames or more: a person's episode.record then also copies
 * the WAL's ~200 pages into the database file and flushes it (47–55 ms in the lifecycle benchmark). Here the
 * connection's autocheckpoint mark is moved far out (a backstop: open-wasm.ts) and the keeper does it instead:
 *
 *   - after every statement or transaction at the top level, it reads how many frames the WAL holds (`framesNow`:
 *     io-counters.ts's walFramesNow in the browser — the frame number of the last page written into the WAL);
 *   - at `soonFrames` or more it asks for one `PRAGMA wal_checkpoint(PASSIVE)` in a task of its own (`schedule`: a
 *     MessageChannel turn, admission.ts). A posted message queues behind the calls that reached the worker before it
 *     (measured in Chromium: a turn asked for while two calls waited ran after both; a setTimeout 0 asked for from
 *     inside nested timers — a clean-up slice — was clamped to 4 ms and ran after later arrivals too), so the call
 *     that wrote and the calls already queued answer first, and the checkpoint copies only a slice's worth;
 *   - while that task waits for its turn, the calls queued ahead of it keep writing. It checkpoints at once, after
 *     the COMMIT and before the call answers — what the autocheckpoint did — only when the task is starved: the WAL
 *     holds `mustFrames` or more and `starvedWrites` writes have gone by since the task was asked for (more than the
 *     worker's callers have in flight: a tab, the jobs worker's clean-up, the probe), or it holds `hardFrames`.
 *     Before (a1d5cdc), any write that took the WAL past `mustFrames` with the task still waiting checkpointed at
 *     once: the lifecycle benchmark's worst wait was an episode.record whose FTS5 automerge COMMIT (220 pages) landed
 *     on 75 frames just after the task was asked for, behind it in the queue — 29 ms of COMMIT + 19 ms of checkpoint
 *     at 295 frames in one go, the probe queued behind both.
 *
 * The WAL then never holds more than `hardFrames` + two transactions' frames (the second is the one that finds it
 * past the mark with the task waiting; the first may have taken it there alone and gets a task), and past `mustFrames`
 * it takes at most `starvedWrites` more writes. A checkpoint only copies committed
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
  /** Writes gone by with the task still waiting after which `mustFrames` means at once. */
  starvedWrites?: number;
  hardFrames?: number;
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
/** Frames after which it runs at once when its task is starved: under the 200 the autocheckpoint had. */
export const WAL_MUST_FRAMES = 160;
/**
 * Writes after which a waiting task counts as starved: the calls that can be queued ahead of it write one
 * transaction each (the tab's, the jobs worker's clean-up slice, another tab's), plus the rest of the asking call.
 */
export const WAL_STARVED_WRITES = 4;
/**
 * Frames after which it runs at once whatever the writes: a soon-sized WAL (≤ ~130) plus the largest one-row COMMIT
 * seen (an FTS5 automerge, ≤ 340 pages) still gets its task; with two such on top it stays near the 1,000 backstop.
 */
export const WAL_HARD_FRAMES = 400;

/** How many of the answers kept: enough for a test or a report, never a growing list. */
const KEPT = 200;

export function keepWalSmall(driver: SqlDriver, opts: WalKeeperOptions): WalKeeper {
  const soonFrames = opts.soonFrames ?? WAL_SOON_FRAMES;
  const mustFrames = opts.mustFrames ?? WAL_MUST_FRAMES;
  const starvedWrites = opts.starvedWrites ?? WAL_STARVED_WRITES;
  const hardFrames = opts.hardFrames ?? WAL_HARD_FRAMES;
  const schedule = opts.schedule ?? defaultSchedule();
  const done: { when: 'soon' | 'must'; log: number; checkpointed: number }[] = [];
  const active = opts.framesNow() !== null && opts.pagesWritten() !== null;
  let depth = 0;
  let queued = false;
  /** Top-level statements that wrote WAL pages since the task was asked for (while it waits). */
  let passedOver = 0;
  let lastPages = opts.pagesWritten();
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
    const pages = opts.pagesWritten();
    if (queued && pages !== lastPages) passedOver++;
    lastPages = pages;
    const n = frames();
    // At once only when the task asked for is starved. A COMMIT that takes the WAL past `mustFrames` while the task
    // waits behind it in the queue (asked for a moment before, by the call or slice that ran just before) answers
    // first; so does a single large one with no task waiting yet (an FTS5 automerge: 200–340 pages).
    if (queued && n >= mustFrames && (passedOver >= starvedWrites || n >= hardFrames)) {
      try {
        checkpoint('must');
      } catch {
        // The call's own work is committed and stays so: the next top-level call tries again.
      }
    } else if (n >= soonFrames && !queued) {
      queued = true;
      passedOver = 0;
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

/** The task's turn: a MessageChannel message, behind the calls already queued at the worker (see above). */
export function defaultSchedule(): (run: () => void) => void {
  const turn = macrotaskTurns();
  return (run) => void turn().then(run);
}
