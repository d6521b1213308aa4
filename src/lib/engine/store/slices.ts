import { resumableTransaction, syncCommitted, type SqlDriver } from './driver';
import { ioDelta, ioSince, ioSnapshot, markSlice, ownPageWritesNow, type IoCounts } from './io-counters';
import { noteTimeline, timelineRecording } from './worker-timeline';

/**
 * Long work in short transactions (issue 16: no background job may stall the page over 50 ms). The work is a
 * step function run over and over inside a transaction until `budgetMs` has passed; the transaction commits and
 * the worker yields a macrotask, so the calls that queued up meanwhile (a recall, a message being stored) run
 * before the next slice. Each slice commits whole: a crash loses at most the slice in flight, and a step that
 * records where it stands (in the same transaction) can resume there.
 *
 *   slice: BEGIN ─ step() … step() (until the budget or done) ─ COMMIT ─▶ yield ─▶ next slice
 */
export interface SliceOptions {
  driver: SqlDriver;
  /** One unit of work inside the open transaction; false when there is nothing left. */
  step: () => boolean;
  /** How long one transaction may run (the longest a foreground call waits behind it, roughly). */
  budgetMs?: number;
  now?: () => number;
  /**
   * After each committed slice (progress reports), with how long its transaction ran (BEGIN to COMMIT, ms) and
   * what that time was made of (a few clock reads a slice; no statement text, no rows).
   */
  onSlice?: (ms: number, timing: SliceTiming) => void;
  /**
   * Inside the transaction, after the slice's last step, before its COMMIT: where the work stands is recorded here
   * once a slice rather than by every step (a step then does only its own work; the slice still commits whole).
   */
  endSlice?: () => void;
  /** Checked between slices: stop early (the work resumes from what it recorded). */
  signal?: AbortSignal;
  /**
   * The budget covers the COMMIT too: the steps stop early by the share the COMMIT took in the slices before
   * (issue 16: an import's slices wrote their full-text rows at the COMMIT, FTS5 flushing its pending terms
   * there — 5–20 ms on top of a 20 ms slice natively, ~70 ms waits in the browser). Off: the budget is the steps'.
   */
  budgetCoversCommit?: boolean;
  /**
   * Pages one slice may append to the WAL (issue 19): a COMMIT's cost on OPFS grows with the pages it appends
   * (~0.1–0.2 ms a page in the lifecycle benchmark: a purge slice of 13 steps wrote 430 pages, an 81 ms COMMIT).
   * The steps stop early by the pages a step wrote in the slices before (rising at once, falling by halves), so a
   * slice of heavy steps is shorter than one of light steps; the slice in which the steps turn heavy cannot know
   * yet (the pages are written at its COMMIT), the next one does. Until a slice has shown what a step writes (the
   * first slices of a run), a slice takes 1 step, then 2, 4 … while they write nothing: a run's first slice ran to
   * the time budget with no page bound (issue 19: a purge phase's first slice, 11 steps, appended 303 pages and
   * its COMMIT crossed the autocheckpoint mark, 35–49 ms). Off (undefined) or where pages are not counted: the time budget alone.
   */
  pageBudget?: number;
  /**
   * What the steps are doing now (a table being written, the merges at the end): a slice ends where it changes,
   * and the pages a step writes are learnt afresh — the first slice of each phase runs one step (issue 16: a
   * pass's first slice, and the first after its steps turned from light rows to heavy ones, ran to the time budget
   * with no page bound; the pages a step writes are known only after a COMMIT). Without it the whole run is one phase.
   */
  phase?: () => unknown;
  /**
   * Pages the transactions appended so far (default: the OPFS counters, store/io-counters.ts, without a checkpoint's
   * copies into the database file — those are the WAL's pages written a second time, whichever COMMIT crosses
   * wal_autocheckpoint's mark, and counting them as the slice's steps' made pagesPerStep jump after every
   * checkpoint and the next slices run a step or two; null: not counted).
   */
  pagesWritten?: () => number | null;
  /**
   * The steps record where the work stands in each slice's own transaction, so a slice lost to a power cut is redone
   * by the job, never missed (issue 16 item 5): each slice then commits at synchronous=NORMAL (driver.ts's
   * resumableTransaction — no flush of the WAL at its COMMIT, the cost a queued call waited for), and once the last
   * slice has committed — the one whose step said "done", or the last before an abort — one COMMIT at FULL makes
   * all of them durable before the run returns (syncCommitted). A slice that throws ends the run without it: what
   * committed before is resumable work, made durable by the next FULL commit or checkpoint. Off: every slice at FULL.
   */
  resumable?: boolean;
}

/** The most the COMMIT's share may shorten a slice's steps (a slow COMMIT once must not starve the work). */
const MAX_COMMIT_RATIO = 3;

export const SLICE_BUDGET_MS = 20;

/**
 * What one slice's time was made of: BEGIN, the steps (the slowest alone), and the COMMIT — where a WAL
 * checkpoint or the VFS's sync shows up. `at`: when the slice began (ms since the epoch, performance.timeOrigin
 * + now(), so a page can line it up with its own calls).
 */
export interface SliceTiming {
  at: number;
  ms: number;
  beginMs: number;
  steps: number;
  stepsMs: number;
  slowestStepMs: number;
  commitMs: number;
  /** The file I/O of the steps (a page cache spill) and of the COMMIT, where counted (store/io-counters.ts: OPFS). */
  stepsIo?: IoCounts;
  commitIo?: IoCounts;
}

/** Lets queued messages (other calls) run: a macrotask, not a microtask. */
export const yieldToQueue = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Runs `step` to the end in slices; returns how many slices it took. */
export async function runInSlices(opts: SliceOptions): Promise<number> {
  const now = opts.now ?? (() => performance.now());
  const budget = opts.budgetMs ?? SLICE_BUDGET_MS;
  let slices = 0;
  // The COMMIT's time over the steps' time, smoothed over the slices so far (budgetCoversCommit).
  let commitRatio = 0;
  const pagesWritten = opts.pagesWritten ?? ownPageWritesNow;
  // Pages a step writes, as the slices of this phase so far showed it (pageBudget); unknown (null) until a slice
  // of the phase has committed: then the slice runs one step, which shows it ("slow start").
  let pagesPerStep: number | null = null;
  // Steps a slice may take while the steps of this phase have written nothing: 1, doubled after each such slice.
  let probeSteps = 1;
  let phase = opts.phase?.();
  const transact = opts.resumable ? <T>(fn: () => T): T => resumableTransaction(opts.driver, fn) : <T>(fn: () => T): T => opts.driver.transaction(fn);
  for (let more = true; more; ) {
    if (opts.signal?.aborted) break;
    const began = now();
    let t0 = began;
    let last = began;
    let steps = 0;
    let slowest = 0;
    const io0 = ioSnapshot();
    const pages0 = opts.pageBudget ? pagesWritten() : null;
    const maxSteps = stepsWithin(opts.pageBudget, pages0, pagesPerStep, probeSteps);
    let phaseChanged = false;
    let io1: IoCounts | null = null;
    markSlice(true);
    try {
      more = transact(() => {
        t0 = now();
        last = t0;
        let going = true;
        do {
          going = opts.step();
          steps++;
          const t = now();
          if (t - last > slowest) slowest = t - last;
          last = t;
          if (opts.phase) {
            const p = opts.phase();
            phaseChanged = p !== phase;
            phase = p;
          }
        } while (going && !phaseChanged && steps < maxSteps && (last - t0) * (1 + commitRatio) < budget);
        opts.endSlice?.();
        io1 = ioSnapshot();
        return going;
      });
    } finally {
      markSlice(false);
    }
    slices++;
    const end = now();
    // A transaction that ran no step is a checkpoint between slices (checkpoint-slices.ts).
    if (!opts.now) {
      noteTimeline(steps === 0 ? 'checkpoint' : 'slice', began, end - began, undefined, timelineRecording() ? ioSince(io0) : undefined);
    }
    const pages1 = pages0 === null ? null : pagesWritten();
    if (phaseChanged) {
      pagesPerStep = null;
      probeSteps = 1;
    } else if (pages0 !== null && pages1 !== null && steps > 0) {
      const perStep = (pages1 - pages0) / steps;
      // Up at once (heavier steps shrink the very next slice), down by halves (one light slice does not undo it).
      pagesPerStep = pagesPerStep === null ? perStep : Math.max(perStep, (pagesPerStep + perStep) / 2);
      probeSteps = pagesPerStep === 0 ? probeSteps * 2 : 1;
    }
    if (opts.budgetCoversCommit && last > t0) commitRatio = Math.min(MAX_COMMIT_RATIO, (commitRatio + (end - last) / (last - t0)) / 2);
    const origin = typeof performance === 'undefined' ? 0 : performance.timeOrigin;
    const io2 = ioSnapshot();
    const io = io0 && io1 && io2 ? { stepsIo: ioDelta(io0, io1), commitIo: ioDelta(io1, io2) } : {};
    opts.onSlice?.(end - began, { at: origin + began, ms: end - began, beginMs: t0 - began, steps, stepsMs: last - t0, slowestStepMs: slowest, commitMs: end - last, ...io });
    if (more) await yieldToQueue();
  }
  if (opts.resumable && slices > 0) {
    // The calls that queued behind the last slice run first: they would wait for its COMMIT and this one back to back.
    await yieldToQueue();
    const began = now();
    markSlice(true);
    try {
      syncCommitted(opts.driver);
    } finally {
      markSlice(false);
    }
    if (!opts.now) noteTimeline('slice', began, now() - began);
  }
  return slices;
}

/**
 * How many steps a slice may run under `pageBudget`: none set or pages not counted (`pages0` null) — no bound
 * but the time budget; the pages a step writes not known yet in this phase — one step; known to be none so far —
 * `probeSteps` (1, 2, 4 … : steps that wrote nothing may start writing); else as many as the budget holds (at
 * least one: a step heavier than the budget still runs, one a slice).
 */
function stepsWithin(pageBudget: number | undefined, pages0: number | null, pagesPerStep: number | null, probeSteps: number): number {
  if (!pageBudget || pages0 === null) return Infinity;
  if (pagesPerStep === null) return 1;
  return pagesPerStep > 0 ? Math.max(1, Math.floor(pageBudget / pagesPerStep)) : probeSteps;
}

/**
 * The `kept` slowest slices of a run, slowest first, times in tenths of a ms: what a job reports of where its
 * longest waits went (the benchmark lines them up with its probes' waits by `at`).
 */
export function slowestSlices(kept = 5): { note: (t: SliceTiming) => void; list: () => SliceTiming[] } {
  const slow: SliceTiming[] = [];
  const tenth = (ms: number) => Math.round(ms * 10) / 10;
  return {
    note(t) {
      if (slow.length === kept && t.ms <= slow.at(-1)!.ms) return;
      slow.push(t);
      slow.sort((a, b) => b.ms - a.ms);
      slow.length = Math.min(slow.length, kept);
    },
    list: () => slow.map((t) => ({ ...t, ms: tenth(t.ms), beginMs: tenth(t.beginMs), stepsMs: tenth(t.stepsMs), slowestStepMs: tenth(t.slowestStepMs), commitMs: tenth(t.commitMs) })),
  };
}
