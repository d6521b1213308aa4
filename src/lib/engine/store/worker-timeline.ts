/**
 * What the DB worker spent its time on, for the benchmark's stall probe (issue 16 item 5: the longest foreground
 * wait during a background job, 92–207 ms, mostly did not line up with any of the job's slowest slices). Every
 * call the engine answers and every transaction a sliced job runs (store/slices.ts: a slice, or a checkpoint between
 * slices) is noted here — kind, when it began (ms since the epoch: performance.timeOrigin + now(), the clock the
 * page's probe uses), how long — in a ring of the last TIMELINE_KEPT. No method input, no rows, no text.
 *
 * A probe's wait then splits into: the job's transactions it sat behind, other calls, the time the worker ran
 * neither before it took the probe up (a GC, the worker's thread not running, the message still on its way), the
 * probe's own handling, and the time its answer took to reach the page after the worker had sent it.
 *
 * Off by default: nothing is noted (not even a clock read in the engine's call path) until a benchmark turns it on
 * through the worker's API (DbWorkerApi.recordTimeline) — production never pays for it.
 */
export interface TimelineEntry {
  kind: 'slice' | 'checkpoint' | 'call';
  /** ms since the epoch (performance.timeOrigin + now()). */
  at: number;
  ms: number;
  /** A call's engine method. */
  method?: string;
}

export const TIMELINE_KEPT = 8192;
const ring: TimelineEntry[] = [];
let next = 0;
let recording = false;

/** Drops every kept entry. */
function clearTimeline(): void {
  ring.length = 0;
  next = 0;
}

/** Turns the timeline on or off (off: what was kept is dropped). */
export function recordTimeline(on: boolean): void {
  recording = on;
  if (!on) clearTimeline();
}

/** Whether calls and slices are being noted (the engine skips its clock reads when not). */
export const timelineRecording = (): boolean => recording;

const origin = () => (typeof performance === 'undefined' ? 0 : performance.timeOrigin);

/** Notes one entry; `startedAt` is on the now() clock (performance.now()), `ms` its length. */
export function noteTimeline(kind: TimelineEntry['kind'], startedAt: number, ms: number, method?: string): void {
  if (!recording) return;
  const e: TimelineEntry = method === undefined ? { kind, at: origin() + startedAt, ms } : { kind, at: origin() + startedAt, ms, method };
  if (ring.length < TIMELINE_KEPT) ring.push(e);
  else ring[next] = e;
  next = (next + 1) % TIMELINE_KEPT;
}

/** The kept entries that overlap [from, to] (epoch ms), oldest first. */
export function timelineBetween(from: number, to: number): TimelineEntry[] {
  return ring.filter((e) => e.at <= to && e.at + e.ms >= from).sort((a, b) => a.at - b.at);
}

/** What one probe's wait was made of, in ms (see the module's comment). */
export interface WaitBreakdown {
  /** The job's slices and checkpoints the probe sat behind before the worker took it up. */
  jobMs: number;
  /** Other calls the worker answered meanwhile (the job's own call not counted: its slices are). */
  callsMs: number;
  /** Before the worker took the probe up, the time it ran neither: a GC, its thread not running, the message in transit. */
  otherMs: number;
  /** The probe's own handling in the worker. */
  probeMs: number;
  /** From the worker's answer to the page having it: the answer in transit, the page's thread busy or not running. */
  replyMs: number;
  /** The longest single transaction of the job within the wait, and what it was (a slice, or a checkpoint between slices). */
  longestJobMs: number;
  longestJobKind: 'slice' | 'checkpoint' | null;
}

const overlap = (e: TimelineEntry, from: number, to: number) => Math.max(0, Math.min(e.at + e.ms, to) - Math.max(e.at, from));

/**
 * Splits a wait (the probe sent at `at` epoch ms, answered `waitMs` later) over the worker's timeline: the probe's
 * own call is the first `probeMethod` call that began inside the wait. Null when it is not among `entries` (the
 * ring had moved on, or the timeline is not kept).
 */
export function waitBreakdown(wait: { at: number; waitMs: number }, entries: readonly TimelineEntry[], probeMethod: string): WaitBreakdown | null {
  const end = wait.at + wait.waitMs;
  const probe = entries.find((e) => e.kind === 'call' && e.method === probeMethod && e.at >= wait.at && e.at <= end);
  if (!probe) return null;
  const r1 = (x: number) => Math.round(x * 10) / 10;
  let jobMs = 0;
  let callsMs = 0;
  let longestJobMs = 0;
  let longestJobKind: WaitBreakdown['longestJobKind'] = null;
  for (const e of entries) {
    if (e === probe) continue;
    const ms = overlap(e, wait.at, probe.at);
    if (e.kind === 'call') {
      // A call that began before the wait and is still running at its end: the job's own (twoStep) call.
      if (!(e.at < wait.at && e.at + e.ms > end)) callsMs += ms;
    } else {
      jobMs += ms;
      const inWait = overlap(e, wait.at, end);
      if (inWait > longestJobMs) [longestJobMs, longestJobKind] = [inWait, e.kind];
    }
  }
  const taken = probe.at - wait.at;
  return {
    jobMs: r1(jobMs),
    callsMs: r1(callsMs),
    otherMs: r1(Math.max(0, taken - jobMs - callsMs)),
    probeMs: r1(probe.ms),
    replyMs: r1(Math.max(0, end - probe.at - probe.ms)),
    longestJobMs: r1(longestJobMs),
    longestJobKind,
  };
}
