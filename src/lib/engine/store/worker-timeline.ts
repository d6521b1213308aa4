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
  /**
   * 'keeper': a WAL keeper checkpoint (wal-keeper.ts) — in a task of its own ('soon') or after a call's COMMIT
   * ('must') — or a piece of FTS5 segment merging in a task of its own ('merge': fts-merge-keeper.ts).
   */
  kind: 'slice' | 'checkpoint' | 'call' | 'keeper';
  /** ms since the epoch (performance.timeOrigin + now()). */
  at: number;
  ms: number;
  /** A call's engine method; a keeper checkpoint's 'soon' or 'must'; 'merge' for a merge task. */
  method?: string;
  /** What the entry wrote to the files (io-counters.ts), where counted: WAL pages, database-file pages, flushes. */
  io?: TimelineIo;
  /** A keeper checkpoint: the WAL frames it found. */
  frames?: number;
}

export interface TimelineIo {
  walPages: number;
  dbPages: number;
  flushes: number;
  flushMs: number;
}

export const TIMELINE_KEPT = 8192;
const ring: TimelineEntry[] = [];
let next = 0;
let recording = false;

/**
 * Per call method while recording: the most WAL pages one call appended, and how many appended BIG_COMMIT_PAGES or
 * more — over the whole run, where the ring keeps only its last entries (issue 19: does any person's COMMIT still
 * merge FTS5 segments?). Counts, no content.
 */
export interface CommitPages {
  most: number;
  big: number;
  calls: number;
}
let commitPages: Record<string, CommitPages> = {};

/** What `commitPages` holds since the timeline was turned on. */
export const callCommitPages = (): Record<string, CommitPages> => ({ ...commitPages });

/** Drops every kept entry. */
function clearTimeline(): void {
  ring.length = 0;
  next = 0;
  commitPages = {};
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
export function noteTimeline(kind: TimelineEntry['kind'], startedAt: number, ms: number, method?: string, extra?: { io?: TimelineIo; frames?: number }): void {
  if (!recording) return;
  const e: TimelineEntry = method === undefined ? { kind, at: origin() + startedAt, ms } : { kind, at: origin() + startedAt, ms, method };
  if (extra?.io) e.io = extra.io;
  if (extra?.frames !== undefined) e.frames = extra.frames;
  if (kind === 'call' && method !== undefined && extra?.io) {
    const c = (commitPages[method] ??= { most: 0, big: 0, calls: 0 });
    c.calls++;
    c.most = Math.max(c.most, extra.io.walPages);
    if (extra.io.walPages >= BIG_COMMIT_PAGES) c.big++;
  }
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
  longestJobKind: 'slice' | 'checkpoint' | 'keeper' | null;
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

/** A call whose COMMIT appended this many WAL pages or more is named by it (FTS5's automerge writes ~200). */
export const BIG_COMMIT_PAGES = 100;
/** What ran this close before an entry (ms) counts as "just before" it: a task queued in front of the call. */
export const JUST_BEFORE_MS = 15;

/** `e` ran inside `outer` (a task between a call's awaits, a checkpoint inside a slice). */
const within = (outer: TimelineEntry, e: TimelineEntry): boolean => e !== outer && e.at >= outer.at && e.at + e.ms <= outer.at + outer.ms + 0.05;

/** What ran, when it is not a call. */
const taskWords = (e: TimelineEntry): string =>
  e.kind === 'keeper' && e.method === 'merge' ? 'FTS merge task' : e.kind === 'keeper' ? `keeper checkpoint (${e.method})` : e.kind === 'slice' ? 'clean-up slice' : 'checkpoint between slices';

const ioWords = (io: TimelineIo | undefined): string => (io ? `${io.walPages} WAL / ${io.dbPages} db pages, ${io.flushes} flushes ${io.flushMs} ms` : 'io not counted');

/** One entry in a few words: what ran, how long, what it wrote. */
export function entryWords(e: TimelineEntry): string {
  const ms = Math.round(e.ms * 10) / 10;
  if (e.kind === 'call') return `${e.method} ${ms} ms (${ioWords(e.io)})`;
  return `${taskWords(e)} ${ms} ms${e.kind === 'keeper' && e.method !== 'merge' ? ` at ${e.frames ?? '?'} frames` : ''} (${ioWords(e.io)})`;
}

/** What a call was, by what it wrote: a read, a write, a COMMIT of many WAL pages, one that checkpointed into the database file. */
function callClass(e: TimelineEntry, inside: readonly TimelineEntry[]): string {
  // A clean-up slice (with its own checkpoints) may run inside a memory query's admission turn: its keeper is not the call's.
  const tasks = inside.filter((x) => x.kind === 'slice' || x.kind === 'checkpoint');
  const keepers = inside.filter((x) => x.kind === 'keeper' && !tasks.some((t) => within(t, x)));
  if (keepers.some((x) => x.method === 'must')) return `${e.method} + keeper checkpoint (must) after its COMMIT`;
  if (!e.io) return `${e.method}`;
  // What the call wrote itself: its span's file I/O less that of the tasks that ran inside it.
  const less = (k: keyof TimelineIo) => e.io![k] - tasks.reduce((n, x) => n + (x.io?.[k] ?? 0), 0) - keepers.reduce((n, x) => n + (x.io?.[k] ?? 0), 0);
  if (less('dbPages') > 0) return `${e.method} with database-file pages written (a checkpoint in its COMMIT)`;
  if (less('walPages') >= BIG_COMMIT_PAGES) return `${e.method} COMMIT of ≥ ${BIG_COMMIT_PAGES} WAL pages`;
  return less('walPages') <= 0 ? `${e.method} read` : `${e.method} write`;
}

/** The stretches of [from, to] no entry covers (a slice inside a call, a checkpoint inside a slice, counted once). */
function unnoted(from: number, to: number, entries: readonly TimelineEntry[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let reach = from;
  for (const e of [...entries].sort((a, b) => a.at - b.at)) {
    if (e.at > reach && reach < to) out.push({ from: reach, to: Math.min(e.at, to) });
    reach = Math.max(reach, e.at + e.ms);
  }
  if (reach < to) out.push({ from: reach, to });
  return out;
}

/**
 * When, before the worker took a probe up, it ran neither a call nor a job transaction (waitBreakdown's and
 * waitCause's "neither", as epoch-ms stretches): what stall-trace.ts lines up with a Chrome trace of the worker's
 * thread. The job's own call (running all along) does not cover them. Null when the probe's own call is not in `entries`.
 */
export function neitherSpans(wait: { at: number; waitMs: number }, entries: readonly TimelineEntry[], probeMethod: string): { from: number; to: number }[] | null {
  const end = wait.at + wait.waitMs;
  const probe = entries.find((e) => e.kind === 'call' && e.method === probeMethod && e.at >= wait.at && e.at <= end);
  if (!probe) return null;
  return unnoted(wait.at, probe.at, entries.filter((e) => e !== probe && !(e.kind === 'call' && e.at < wait.at && e.at + e.ms > end)));
}

/**
 * Why a probe waited (sent at `at` epoch ms, answered `waitMs` later), from the worker's timeline: whichever ran
 * longest between the probe's sending and the worker taking it up — a call (classed by what it wrote), a keeper
 * checkpoint, a clean-up slice or a checkpoint between slices, or nothing the worker noted (a GC, its thread not
 * running, the message in transit) — or the probe's own handling or its answer's way back when those were longer.
 * `before`: what ran in the JUST_BEFORE_MS before that cause began (a task queued in front of it). Null when the
 * probe's own call is not in `entries`.
 */
export function waitCause(wait: { at: number; waitMs: number }, entries: readonly TimelineEntry[], probeMethod: string): { cause: string; causeMs: number; before: string[] } | null {
  const end = wait.at + wait.waitMs;
  const probe = entries.find((e) => e.kind === 'call' && e.method === probeMethod && e.at >= wait.at && e.at <= end);
  if (!probe) return null;
  const spans = (e: TimelineEntry) => e.at < wait.at && e.at + e.ms > end; // the job's own call, running all along
  const candidates = entries.filter((e) => e !== probe && !(e.kind === 'call' && spans(e)));
  // Time in a call that another entry ran inside (a task between its awaits) is that entry's, not the call's.
  const own = (e: TimelineEntry) => {
    const o = overlap(e, wait.at, probe.at);
    if (e.kind !== 'call') return o;
    const nested = candidates.filter((x) => within(e, x));
    // Only the outermost of those: a keeper checkpoint inside a slice inside the call is the slice's time already.
    const outer = nested.filter((x) => !nested.some((y) => within(y, x)));
    return Math.max(0, o - outer.reduce((n, x) => n + overlap(x, wait.at, probe.at), 0));
  };
  let top: TimelineEntry | null = null;
  let topMs = 0;
  for (const e of candidates) {
    const ms = own(e);
    if (ms > topMs) [top, topMs] = [e, ms];
  }
  const neither = unnoted(wait.at, probe.at, candidates).reduce((n, s) => n + s.to - s.from, 0);
  const reply = Math.max(0, end - probe.at - probe.ms);
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const options: [string, number, TimelineEntry | null][] = [
    [top ? (top.kind === 'call' ? callClass(top, candidates.filter((x) => within(top!, x))) : taskWords(top)) : 'none', topMs, top],
    ['worker ran nothing noted (GC, thread not running, message in transit)', neither, null],
    [`the probe's own ${probeMethod}`, probe.ms, null],
    ["the answer's way back (page busy or message in transit)", reply, null],
  ];
  const [cause, causeMs, entry] = options.reduce((a, b) => (b[1] > a[1] ? b : a));
  const from = entry ? entry.at : wait.at;
  const before = entries.filter((e) => e !== entry && e.at + e.ms <= from + 0.05 && e.at + e.ms >= from - JUST_BEFORE_MS && !(e.kind === 'call' && spans(e))).map(entryWords);
  return { cause, causeMs: r1(causeMs), before };
}
