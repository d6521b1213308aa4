/**
 * What a thread did in a window of a Chrome trace (stall-trace.ts): the trace's events, the clock they are on and
 * the question "during this stall probe's wait, what ran on the DB worker's thread and on the page's?".
 *
 * Clocks: trace events' `ts`/`dur` are µs on Chrome's monotonic clock; the probe's waits and the worker's timeline
 * are epoch ms (performance.timeOrigin + now()). A `performance.mark` made in a context gives both at once — its
 * trace event's `ts` and the epoch ms the context computed for the same mark — so each thread gets its own exact
 * offset (`clockFromMark`), with no round trip in it.
 *
 * Thread time: Chrome's complete events ('X') carry `tdur`, the thread's CPU time over the event, beside `dur`, its
 * wall time. Wall time in an event that is not CPU time is time the thread was descheduled inside it (a GC pause
 * "of 300 ms" with 20 ms of CPU is the OS, not the collector); wall time in no event at all is the thread running
 * nothing (idle, or descheduled between tasks: the trace does not say which without the kernel's scheduler events).
 */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

/** A thread's epoch ↔ trace-µs relation, from one mark made on it. */
export interface ThreadClock {
  pid: number;
  tid: number;
  /** epoch ms = ts / 1000 + offsetMs. */
  offsetMs: number;
}

/** The thread that made the mark `name` and its clock offset; `epochMs` is what the context computed for the mark. */
export function clockFromMark(events: readonly TraceEvent[], name: string, epochMs: number): ThreadClock {
  const marks = events.filter((e) => e.name === name && e.cat.includes('blink.user_timing'));
  if (marks.length !== 1) throw new Error(`trace: ${marks.length} user-timing events named ${name}, expected one`);
  const m = marks[0]!;
  return { pid: m.pid, tid: m.tid, offsetMs: epochMs - m.ts / 1000 };
}

export type GcKind = 'scavenge' | 'mark-compact atomic pause' | 'mark-compact finalize' | 'incremental marking step' | 'cppgc / oilpan' | 'other gc';

/** What kind of collection a GC trace event is, by V8's and Blink's event names; null for an event that is not a GC. */
export function gcKind(name: string): GcKind | null {
  if (/^(MinorGC|V8\.GCScavenger|V8\.GC_SCAVENGER|MinorMS|V8\.GCMinorMS|V8\.GC_MINOR_MS)/.test(name)) return 'scavenge';
  if (/^V8\.GCFinalizeMC/.test(name)) return 'mark-compact finalize';
  if (/^(MajorGC|V8\.GCCompactor|V8\.GC_MARK_COMPACTOR|V8\.GCFullGC)/.test(name)) return 'mark-compact atomic pause';
  if (/^V8\.GC(Incremental|_MC_INCREMENTAL)/.test(name)) return 'incremental marking step';
  if (/^(BlinkGC|CppGC|V8\.GC_CPPGC|BlinkGC\.)/.test(name)) return 'cppgc / oilpan';
  if (/^V8\.GC|GCEvent$|^V8\.GC_/.test(name)) return 'other gc';
  return null;
}

const overlapUs = (e: TraceEvent, from: number, to: number) => Math.max(0, Math.min(e.ts + (e.dur ?? 0), to) - Math.max(e.ts, from));
const r1 = (x: number) => Math.round(x * 10) / 10;
const mb = (bytes: unknown) => (typeof bytes === 'number' ? Math.round((bytes / 2 ** 20) * 10) / 10 : undefined);

export interface GcInWindow {
  name: string;
  kind: GcKind;
  /** ms from the window's start to the event's start (negative: it began before the window). */
  atMs: number;
  /** Wall ms of the whole event, and of it inside the window. */
  ms: number;
  inWindowMs: number;
  /** The thread's CPU ms over the event (tdur), where the trace has it. */
  cpuMs?: number;
  heapBeforeMb?: number;
  heapAfterMb?: number;
  /** The longest phases inside it (V8's nested GC events), wall ms. */
  phases: string[];
}

export interface WindowReport {
  fromMs: number;
  ms: number;
  /** Wall ms the thread was inside some event (the union), and that inside no event at all. */
  busyMs: number;
  nothingMs: number;
  /** The longest stretches inside no event, [start ms from the window's start, length]. */
  gaps: [number, number][];
  /** Of the busy wall time, the thread's CPU ms (from the top-level events' tdur, prorated to the window). */
  cpuMs: number | null;
  /** The outermost GC events overlapping the window, longest first, and their wall ms inside it (the union). */
  gc: GcInWindow[];
  gcMs: number;
  /** The top-level tasks that overlapped, longest first: name, wall ms inside the window, CPU ms, the longest events inside. */
  tasks: { name: string; atMs: number; inWindowMs: number; ms: number; cpuMs?: number; inside: string[] }[];
}

const within = (outer: TraceEvent, e: TraceEvent) => e !== outer && e.ts >= outer.ts && e.ts + (e.dur ?? 0) <= outer.ts + (outer.dur ?? 0);

/** The union length of the events' spans inside [from, to] µs, and the stretches none covers. */
function coverage(events: readonly TraceEvent[], from: number, to: number): { busy: number; gaps: [number, number][] } {
  const spans = events.filter((e) => overlapUs(e, from, to) > 0).sort((a, b) => a.ts - b.ts);
  let busy = 0;
  let reach = from;
  const gaps: [number, number][] = [];
  for (const e of spans) {
    const s = Math.max(e.ts, from);
    const end = Math.min(e.ts + (e.dur ?? 0), to);
    if (s > reach) gaps.push([reach, s]);
    if (end > reach) busy += end - Math.max(s, reach);
    reach = Math.max(reach, end);
  }
  if (reach < to) gaps.push([reach, to]);
  return { busy, gaps };
}

/**
 * What one thread did in [fromMs, fromMs + ms] epoch ms: `events` are that thread's (any pid/tid filter done by the
 * caller), `clock` its offset. Only complete events with a duration count as the thread doing something.
 */
export function threadWindow(events: readonly TraceEvent[], clock: ThreadClock, fromMs: number, ms: number): WindowReport {
  const from = (fromMs - clock.offsetMs) * 1000;
  const to = from + ms * 1000;
  const spans = events.filter((e) => e.ph === 'X' && (e.dur ?? 0) > 0 && overlapUs(e, from, to) > 0);
  const { busy, gaps } = coverage(spans, from, to);
  // Top-level: in no other event of the thread (the message loop's task, or a GC the loop ran between tasks).
  const top = spans.filter((e) => !spans.some((o) => within(o, e)));
  let cpu: number | null = 0;
  for (const e of top) {
    if (e.tdur === undefined) {
      cpu = null;
      break;
    }
    cpu += e.tdur * (overlapUs(e, from, to) / (e.dur ?? 1));
  }
  const gcEvents = spans.filter((e) => gcKind(e.name) !== null);
  const outerGc = gcEvents.filter((e) => !gcEvents.some((o) => within(o, e)));
  // Heap figures: Blink's MinorGC/MajorGC (devtools.timeline) carry them; V8's own outer event may be the one kept.
  const heapOf = (e: TraceEvent) => {
    const withHeap = [e, ...gcEvents.filter((o) => within(e, o) || within(o, e))].find((x) => x.args && 'usedHeapSizeBefore' in x.args);
    return withHeap?.args as { usedHeapSizeBefore?: number; usedHeapSizeAfter?: number } | undefined;
  };
  const longest = (inside: TraceEvent[], n: number) =>
    inside
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, n)
      .map((x) => `${x.name} ${r1((x.dur ?? 0) / 1000)} ms`);
  const gc = outerGc
    .map((e): GcInWindow => {
      const heap = heapOf(e);
      const g: GcInWindow = {
        name: e.name,
        kind: gcKind(e.name)!,
        atMs: r1((e.ts - from) / 1000),
        ms: r1((e.dur ?? 0) / 1000),
        inWindowMs: r1(overlapUs(e, from, to) / 1000),
        phases: longest(gcEvents.filter((x) => within(e, x) && x.name !== e.name), 4),
      };
      if (e.tdur !== undefined) g.cpuMs = r1(e.tdur / 1000);
      if (heap?.usedHeapSizeBefore !== undefined) g.heapBeforeMb = mb(heap.usedHeapSizeBefore);
      if (heap?.usedHeapSizeAfter !== undefined) g.heapAfterMb = mb(heap.usedHeapSizeAfter);
      return g;
    })
    .sort((a, b) => b.inWindowMs - a.inWindowMs);
  const tasks = top
    .map((e) => ({
      name: e.name,
      atMs: r1((e.ts - from) / 1000),
      inWindowMs: r1(overlapUs(e, from, to) / 1000),
      ms: r1((e.dur ?? 0) / 1000),
      ...(e.tdur !== undefined ? { cpuMs: r1(e.tdur / 1000) } : {}),
      inside: longest(
        spans.filter((x) => within(e, x)),
        4,
      ),
    }))
    .sort((a, b) => b.inWindowMs - a.inWindowMs);
  return {
    fromMs,
    ms: r1(ms),
    busyMs: r1(busy / 1000),
    nothingMs: r1((to - from - busy) / 1000),
    gaps: gaps
      .filter(([a, b]) => b - a >= 1000)
      .sort((x, y) => y[1] - y[0] - (x[1] - x[0]))
      .slice(0, 4)
      .map(([a, b]) => [r1((a - from) / 1000), r1((b - a) / 1000)]),
    cpuMs: cpu === null ? null : r1(cpu / 1000),
    gc,
    gcMs: r1(coverage(outerGc, from, to).busy / 1000),
    tasks: tasks.slice(0, 6),
  };
}

/**
 * Several stretches of one thread (a wait's "worker neither" spans) summed: the wall ms in GC, in other work (CPU
 * and descheduled inside events), and in no event at all.
 */
export function stretchesSum(reports: readonly WindowReport[]): { ms: number; gcMs: number; otherBusyMs: number; nothingMs: number; cpuMs: number | null } {
  const sum = (f: (r: WindowReport) => number) => r1(reports.reduce((n, r) => n + f(r), 0));
  const cpu = reports.some((r) => r.cpuMs === null) ? null : sum((r) => r.cpuMs ?? 0);
  return { ms: sum((r) => r.ms), gcMs: sum((r) => r.gcMs), otherBusyMs: sum((r) => r.busyMs - r.gcMs), nothingMs: sum((r) => r.nothingMs), cpuMs: cpu };
}
