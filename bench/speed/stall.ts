/**
 * No stall over 50 ms (issue 16 item 5): while a background job runs on the DB worker, a foreground call (a page
 * of the conversation list, what the chat reads after each write) is made every PROBE_EVERY_MS and timed; the
 * longest of those waits is what a person would feel. The same probe on an idle worker is the baseline.
 */
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import type { SliceTiming } from '../../src/lib/engine/store/slices';
import { waitBreakdown, waitCause, type TimelineEntry, type WaitBreakdown } from '../../src/lib/engine/store/worker-timeline';

export type WaitCause = NonNullable<ReturnType<typeof waitCause>>;

export interface StallReport {
  job: string;
  jobMs: number;
  /** When the job began (performance.timeOrigin + now(), the probes' clock): where its worst waits fell in it. */
  startedAt: number;
  probes: number;
  maxWaitMs: number;
  p95WaitMs: number;
  /** What the job did (rows, chunks …). */
  detail: Record<string, number>;
  /**
   * The longest waits, each with when its probe was sent (ms since the epoch: timeOrigin + now()), longest first,
   * and where the worker's timeline was read (stallDuring's `timeline`) what the wait was made of.
   */
  worst: { at: number; waitMs: number; breakdown?: WaitBreakdown | null; cause?: WaitCause | null; entries?: TimelineEntry[] }[];
  /**
   * Every wait of CAUSE_FROM_MS or more (the first CAUSES_KEPT), with why it waited (worker-timeline.ts waitCause),
   * where the worker's timeline was read.
   */
  causes?: { at: number; waitMs: number; cause: WaitCause | null }[];
  /** The job's slowest slices, where it reports them (SliceTiming: steps, COMMIT ms, its file I/O): wal-ab.ts reads them. */
  slices?: SliceTiming[];
}

const WORST_KEPT = 5;

const PROBE_EVERY_MS = 5;

/** A wait this long or longer, among the longest so far, has the worker's timeline read right after it. */
const BREAKDOWN_FROM_MS = 30;

/** Every wait this long or longer has its cause read from the worker's timeline (issue 19: the waits > 40 ms by cause). */
export const CAUSE_FROM_MS = 40;
const CAUSES_KEPT = 500;
/** How far before a wait the timeline is read: what ran just before its cause (a task queued in front of it). */
const LOOKBACK_MS = 60;

/** The worker's calls and job transactions overlapping [from, to] (epoch ms): DbWorkerApi.timeline. */
export type ReadTimeline = (from: number, to: number) => Promise<TimelineEntry[]>;

/**
 * `timeline`: read the worker's timeline (store/worker-timeline.ts) right after each of the longest waits, while the
 * worker still keeps it, and split the wait: the job's transactions, other calls, neither (a GC, a thread not
 * running, the message in transit), the probe itself, its answer's way back.
 */
export async function stallDuring(engine: EngineCaller, job: string, run: () => Promise<Record<string, number>>, timeline?: ReadTimeline): Promise<StallReport> {
  const waits: number[] = [];
  const sentAt: number[] = [];
  const breakdowns = new Map<number, WaitBreakdown | null>();
  const details = new Map<number, { cause: WaitCause | null; entries: TimelineEntry[] }>();
  const causes: NonNullable<StallReport['causes']> = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const t = performance.now();
      await engine.call('session.list', { limit: 20 });
      const wait = performance.now() - t;
      const at = performance.timeOrigin + t;
      const among = wait >= BREAKDOWN_FROM_MS && waits.filter((w) => w >= wait).length < WORST_KEPT;
      if (timeline && (among || wait >= CAUSE_FROM_MS)) {
        const entries = await timeline(at - LOOKBACK_MS, at + wait);
        const inWait = entries.filter((e) => e.at + e.ms >= at);
        const cause = waitCause({ at, waitMs: wait }, entries, 'session.list');
        if (among) breakdowns.set(waits.length, waitBreakdown({ at, waitMs: wait }, inWait, 'session.list'));
        if (among) details.set(waits.length, { cause, entries });
        if (wait >= CAUSE_FROM_MS && causes.length < CAUSES_KEPT) causes.push({ at, waitMs: wait, cause });
      }
      waits.push(wait);
      sentAt.push(at);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  const t0 = performance.now();
  let detail: Record<string, number>;
  try {
    detail = await run();
  } finally {
    running = false;
    await probe;
  }
  const jobMs = performance.now() - t0;
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    job,
    jobMs,
    startedAt: performance.timeOrigin + t0,
    probes: waits.length,
    maxWaitMs: sorted.at(-1) ?? 0,
    p95WaitMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0,
    detail,
    worst: waits
      .map((waitMs, i) => ({ at: sentAt[i]!, waitMs, ...(breakdowns.has(i) ? { breakdown: breakdowns.get(i) } : {}), ...details.get(i) }))
      .sort((a, b) => b.waitMs - a.waitMs)
      .slice(0, WORST_KEPT),
    ...(timeline ? { causes } : {}),
  };
}

/**
 * What the longest wait of a job sat behind, when the job reports its slowest slices (SliceTiming, `at` on the
 * same clock as the probes): the slice that overlapped the wait — its ms, steps, slowest step and COMMIT — or
 * `-1 slice ms` when none of the slowest did (the wait was not one of the job's transactions: a GC, the call's
 * own reply, the worker's other work).
 */
export function sliceBehindWorstWait(report: StallReport, slices: readonly SliceTiming[]): Record<string, number> {
  const w = report.worst[0];
  if (!w || slices.length === 0) return {};
  const s = slices.find((x) => x.at < w.at + w.waitMs && x.at + x.ms > w.at);
  if (!s) return { 'slice ms': -1 };
  return { 'slice ms': s.ms, steps: s.steps, 'slowest step ms': s.slowestStepMs, 'commit ms': s.commitMs };
}

/** A wait's breakdown as table detail: the job's transactions, other calls, neither, the answer's way back (ms). */
export function breakdownDetail(b: WaitBreakdown | null | undefined): Record<string, number> {
  if (!b) return {};
  return {
    'behind job ms': b.jobMs,
    'behind calls ms': b.callsMs,
    'worker neither ms': b.otherMs,
    'reply ms': b.replyMs,
    ...(b.longestJobKind ? { [`longest job ${b.longestJobKind} ms`]: b.longestJobMs } : {}),
  };
}

/** The background jobs, each through the product's own calls, as the settings page and the jobs worker make them. */
export async function backgroundStalls(opts: { engine: EngineCaller; importUrl: string | null; exportChunks: number; timeline?: ReadTimeline }): Promise<StallReport[]> {
  const { engine } = opts;
  // The longest wait's breakdown beside the job's figures (the table's detail), where the timeline was read.
  const stall = async (job: string, run: () => Promise<Record<string, number>>): Promise<StallReport> => {
    const r = await stallDuring(engine, job, run, opts.timeline);
    Object.assign(r.detail, breakdownDetail(r.worst[0]?.breakdown));
    return r;
  };
  const must = async <T>(p: Promise<{ ok: true; data: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> => {
    const r = await p;
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.data;
  };
  const out: StallReport[] = [];
  out.push(await stall('idle (baseline)', async () => (await new Promise((r) => setTimeout(r, 1000)), {})));
  out.push(
    await stall('export (1 MB pieces)', async (): Promise<Record<string, number>> => {
      const begun = await engine.call('backup.exportBegin', { scope: { kind: 'all' } });
      // At a million turns the whole store is past what a backup file may hold (512 MB): the product refuses at
      // the start (INVALID_ARGUMENT, nothing exported) and points to a project, a conversation or the database
      // file. The wait that refusal caused is still measured.
      if (!begun.ok && begun.error.code === 'INVALID_ARGUMENT') return { refused: 1 };
      const started = await must(Promise.resolve(begun));
      let chars = 0;
      let pieces = 0;
      for (; pieces < opts.exportChunks; pieces++) {
        const c = await must(engine.call('backup.exportChunk', { exportId: started.exportId, maxChars: 1_000_000 }));
        chars += c.text.length;
        if (c.done) break;
      }
      await engine.call('backup.exportCancel', { exportId: started.exportId });
      return { pieces, mb: Math.round(chars / 2 ** 20), totalRows: started.totalRows };
    }),
  );
  if (opts.importUrl) {
    const blob = await (await fetch(opts.importUrl)).blob();
    let token = '';
    out.push(
      await stall('import preview', async () => {
        const p = await must(engine.call('backup.importPreview', { file: blob, mode: 'merge' }));
        token = p.token;
        return { rows: Object.values(p.tables).reduce((n, t) => n + t.incoming, 0), mb: Math.round(blob.size / 2 ** 20) };
      }),
    );
    let applySlices: SliceTiming[] = [];
    const apply = await stall('import apply', async () => {
      const r = await must(engine.call('backup.importApply', { token, mode: 'merge' }));
      applySlices = r.slowSlices ?? [];
      await must(engine.call('backup.importFiles', { token }));
      return { added: Object.values(r.tables).reduce((n, t) => n + t.add, 0) };
    });
    Object.assign(apply.detail, sliceBehindWorstWait(apply, applySlices));
    apply.slices = applySlices;
    out.push(apply);
  }
  out.push(
    await stall('rolling summaries pass', async () => {
      const r = await must(engine.call('summary.roll', {}));
      return { created: r.created.length, sessions: r.sessions };
    }),
  );
  let reindexSlices: SliceTiming[] = [];
  const reindex = await stall('reindex', async () => {
    const r = await must(engine.call('maintenance.reindex', {}));
    reindexSlices = r.slowSlices ?? [];
    return { rows: r.messages + r.summaries + r.memories };
  });
  Object.assign(reindex.detail, sliceBehindWorstWait(reindex, reindexSlices));
  reindex.slices = reindexSlices;
  out.push(reindex);
  return out;
}
