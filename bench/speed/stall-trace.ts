/**
 * What fills the stall probe's "worker neither" time (issue 16: the longest foreground waits during export, import
 * apply and the reindex were mostly time the DB worker ran neither a call nor a job slice): stall.ts's jobs at one
 * size with a Chrome trace recorded over CDP on the browser target (V8's GC events, Blink's timeline, the message
 * loops' tasks), then each job's worst waits lined up with what the trace shows on the DB worker's thread and on the
 * page's main thread during the wait and during its "neither" stretches (store/worker-timeline.ts neitherSpans):
 * GC events (kind, wall and CPU ms, heap before/after), the tasks that ran, and the time the thread ran nothing.
 *
 * Clocks and threads (trace-attribution.ts): a `performance.mark` made on the page and one made in the DB worker
 * (over the worker's DevTools session) right after the trace starts: each mark's trace event names its thread and
 * gives the thread's exact epoch ↔ trace offset (the context's own epoch ms for the same mark). A second pair at the
 * end checks the offset held (the drift is printed).
 *
 * The root as stall-ab.ts leaves it (one harness build per variant, `--minify false` names the functions); the
 * prefill and the backup are made here if missing (stall-inputs.ts):
 *   npx vite build --config bench/speed/vite.config.ts --outDir /tmp/stall-ab/A --emptyOutDir --minify false
 *   BENCH_PORT=4191 npx tsx bench/speed/stall-trace.ts --root /tmp/stall-ab --variant A --turns 10000 --runs 3 \
 *     --out /tmp/stall-trace.json   # + /tmp/stall-trace-<run>.trace.json (the raw traces, for chrome://tracing)
 */
import type { CDPSession } from '@playwright/test';
import { createReadStream, createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { neitherSpans } from '../../src/lib/engine/store/worker-timeline';
import { launchBenchChromium } from './chromium';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import type { StallReport } from './stall';
import { ensureStallInputs } from './stall-inputs';
import { sampleThreads, schedWindow, type SchedSample } from './thread-sched';
import { clockFromMark, gcKind, stretchesSum, threadWindow, type ThreadClock, type TraceEvent } from './trace-attribution';
import { bootWithDbWorker } from './worker-cdp';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variant: { type: 'string', default: 'A' },
    turns: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    'import-memories': { type: 'string', default: '10000' },
    /** Waits this long or longer, among each job's worst (stall.ts keeps five), are lined up. */
    'from-ms': { type: 'string', default: '30' },
    jobs: { type: 'string', default: 'export (1 MB pieces),import apply,reindex' },
    out: { type: 'string', default: '/tmp/stall-trace.json' },
  },
});
if (!values.root) throw new Error('--root <dir holding one harness build per variant> is required');
const root = resolve(values.root);
const PORT = Number(process.env.BENCH_PORT ?? 4191);
const CATEGORIES = [
  'disabled-by-default-v8.gc',
  'v8.gc',
  'v8',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'blink.user_timing',
];
const fromMs = Number(values['from-ms']);
/** GC pauses of the DB worker this long or longer are each reported, in a wait or not. */
const LONG_GC_MS = 20;
const jobs = values.jobs!.split(',');
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
type Bench = { engramBench: BenchApi };

/** Ends the trace and writes its stream to `file` (Tracing.tracingComplete's stream, read with IO.read). */
async function endTrace(browser: CDPSession, file: string): Promise<void> {
  const done = new Promise<string>((r) => browser.once('Tracing.tracingComplete', (e: { stream?: string }) => r(e.stream!)));
  await browser.send('Tracing.end');
  const handle = await done;
  const out = createWriteStream(file);
  for (;;) {
    const chunk = await browser.send('IO.read', { handle, size: 4 << 20 });
    out.write(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64') : chunk.data);
    if (chunk.eof) break;
  }
  await browser.send('IO.close', { handle });
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
}

const epochMark = (name: string) => `(() => { const m = performance.mark(${JSON.stringify(name)}); return performance.timeOrigin + m.startTime; })()`;

/** One run: boot, trace on, marks, the stalls, marks, trace off; the trace's file and the stall reports. */
type Sched = Map<number, { comm: string; samples: SchedSample[] }>;
async function traced(run: number): Promise<{ file: string; stalls: StallReport[]; marks: Record<string, number>; load: [number, number]; sched: Sched }> {
  const dir = join(root, `trace-profile-${process.pid}`);
  const context = await launchBenchChromium(dir);
  const file = resolve(values.out!.replace(/\.json$/, `-${run}.trace.json`));
  try {
    const { page, send } = await bootWithDbWorker(context, `http://127.0.0.1:${PORT}/${values.variant}/index.html?prefill=${encodeURIComponent(`/prefill-${values.turns}.sqlite3`)}`);
    page.setDefaultTimeout(0);
    const browser = await context.browser()!.newBrowserCDPSession();
    await browser.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordContinuously' } });
    // The renderer's threads' kernel counters beside the trace (thread-sched.ts): the page's, the DB worker's, V8's helpers.
    const { processInfo } = (await browser.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    const samplers = processInfo.filter((p) => p.type === 'renderer').map((p) => ({ pid: p.id, s: sampleThreads(p.id, () => true) }));
    const marks: Record<string, number> = {};
    const mark = async (when: string) => {
      marks[`stall-trace-page-${when}`] = await page.evaluate(epochMark(`stall-trace-page-${when}`));
      const w = (await send('Runtime.evaluate', { expression: epochMark(`stall-trace-db-${when}`), returnByValue: true })) as { result?: { value: number } };
      if (typeof w.result?.value !== 'number') throw new Error(`the DB worker's mark: ${JSON.stringify(w)}`);
      marks[`stall-trace-db-${when}`] = w.result.value;
    };
    await mark('start');
    const load0 = Math.round((loadavg()[0] ?? 0) * 10) / 10;
    const stalls: StallReport[] = await page.evaluate((importUrl) => (window as unknown as Bench).engramBench.stalls({ importUrl, exportChunks: 0 }), `/${importFile}`);
    const load1 = Math.round((loadavg()[0] ?? 0) * 10) / 10;
    await mark('end');
    const sched: Sched = new Map();
    for (const { pid, s } of samplers) for (const [tid, t] of s.stop()) sched.set(tid, { ...t, comm: `${pid}/${t.comm}` });
    await endTrace(browser, file);
    return { file, stalls, marks, load: [load0, load1], sched };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The trace's events (the stream is one JSON object with `traceEvents`, one event a line). Read a line at a time: at
 * 100,000 turns the trace is past 512 MB, longer than a string V8 can hold (ERR_STRING_TOO_LONG in one readFileSync).
 */
async function readTrace(file: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const raw of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    // The last event's line also closes the list and opens the metadata: `…}],"metadata":`.
    const line = raw.trim().replace(/\],"metadata":$/, '').replace(/,$/, '');
    if (!line.startsWith('{"') || line.startsWith('{"traceEvents"')) continue;
    try {
      events.push(JSON.parse(line) as TraceEvent);
    } catch {
      // The metadata object's line, not an event.
    }
  }
  return events;
}

/** The thread's kernel split over [fromMs, +ms] epoch ms (the trace's clock is CLOCK_MONOTONIC: ts µs = monotonic µs). */
const schedOf = (sched: Sched, c: ThreadClock, fromMs: number, ms: number) => {
  const t = sched.get(c.tid);
  if (!t) return null;
  const from = (fromMs - c.offsetMs) * 1000;
  return schedWindow(t.samples, from, from + ms * 1000);
};

/** V8's helper threads (the pool its parallel GC jobs run on) over a window: running / waiting for a CPU, summed. */
const helpersOf = (sched: Sched, pid: number, fromUs: number, toUs: number) => {
  const out = { threads: 0, runningMs: 0, waitingForCpuMs: 0 };
  for (const [, t] of sched) {
    if (!t.comm.startsWith(`${pid}/ThreadPool`)) continue;
    const w = schedWindow(t.samples, fromUs, toUs);
    if (!w) continue;
    out.threads++;
    out.runningMs = Math.round((out.runningMs + w.runningMs) * 10) / 10;
    out.waitingForCpuMs = Math.round((out.waitingForCpuMs + w.waitingForCpuMs) * 10) / 10;
  }
  return out;
};

function analyse(events: TraceEvent[], stalls: StallReport[], marks: Record<string, number>, sched: Sched) {
  const clock = (who: string, when: string) => clockFromMark(events, `stall-trace-${who}-${when}`, marks[`stall-trace-${who}-${when}`]!);
  // The trace is recorded continuously into a ring buffer: on a long run (100,000 turns) its start, the start marks
  // with it, is overwritten. Then the end marks give the clocks (and no drift is measured: NaN).
  const has = (name: string) => events.some((e) => e.name === name && e.cat.includes('blink.user_timing'));
  const whence = has('stall-trace-db-start') && has('stall-trace-page-start') ? 'start' : 'end';
  const db = clock('db', whence);
  const pg = clock('page', whence);
  const drift = whence === 'start' ? { dbMs: clock('db', 'end').offsetMs - db.offsetMs, pageMs: clock('page', 'end').offsetMs - pg.offsetMs } : { dbMs: NaN, pageMs: NaN };
  const threadName = (c: ThreadClock) => events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === c.pid && e.tid === c.tid)?.args?.name;
  const on = (c: ThreadClock) => events.filter((e) => e.pid === c.pid && e.tid === c.tid);
  const dbEvents = on(db);
  const pageEvents = on(pg);
  const waits = stalls
    .filter((s) => jobs.includes(s.job))
    .flatMap((s) =>
      s.worst
        .filter((w) => w.waitMs >= fromMs)
        .map((w) => {
          const spans = w.entries ? neitherSpans(w, w.entries, 'session.list') : null;
          const neither = (spans ?? []).map((x) => ({ ...threadWindow(dbEvents, db, x.from, x.to - x.from), sched: schedOf(sched, db, x.from, x.to - x.from) }));
          return {
            job: s.job,
            waitMs: Math.round(w.waitMs * 10) / 10,
            breakdown: w.breakdown ?? null,
            cause: w.cause?.cause ?? null,
            /** The "worker neither" stretches on the DB worker's thread: [ms from the probe's sending, length] and what filled them. */
            neitherSpans: (spans ?? []).map((x) => [Math.round((x.from - w.at) * 10) / 10, Math.round((x.to - x.from) * 10) / 10]),
            neitherSum: spans ? stretchesSum(neither) : null,
            neither,
            worker: { ...threadWindow(dbEvents, db, w.at, w.waitMs), sched: schedOf(sched, db, w.at, w.waitMs) },
            page: { ...threadWindow(pageEvents, pg, w.at, w.waitMs), sched: schedOf(sched, pg, w.at, w.waitMs) },
          };
        }),
    );
  // Every GC pause of the DB worker of LONG_GC_MS or more in the run, waits or not: what a long pause is made of.
  const gcs = dbEvents.filter((e) => e.ph === 'X' && (e.name === 'MajorGC' || e.name === 'MinorGC') && (e.dur ?? 0) >= LONG_GC_MS * 1000);
  const longGc = gcs.flatMap((e) => {
    const w = threadWindow(dbEvents, db, e.ts / 1000 + db.offsetMs, (e.dur ?? 0) / 1000).gc[0];
    if (!w) return [];
    return { ...w, atEpochMs: e.ts / 1000 + db.offsetMs, sched: schedOf(sched, db, e.ts / 1000 + db.offsetMs, (e.dur ?? 0) / 1000), helpers: helpersOf(sched, db.pid, e.ts, e.ts + (e.dur ?? 0)) };
  });
  const all = dbEvents.filter((e) => e.ph === 'X' && (e.name === 'MajorGC' || e.name === 'MinorGC'));
  const gcTotals = (name: string) => {
    const xs = all.filter((e) => e.name === name);
    return { count: xs.length, wallMs: Math.round(xs.reduce((n, e) => n + (e.dur ?? 0), 0) / 100) / 10, cpuMs: Math.round(xs.reduce((n, e) => n + (e.tdur ?? 0), 0) / 100) / 10, longestMs: Math.round(Math.max(0, ...xs.map((e) => e.dur ?? 0)) / 100) / 10 };
  };
  return {
    threads: { db: { ...db, name: threadName(db), sampled: sched.has(db.tid) }, page: { ...pg, name: threadName(pg), sampled: sched.has(pg.tid) } },
    driftMs: drift,
    gc: { major: gcTotals('MajorGC'), minor: gcTotals('MinorGC'), long: longGc, kinds: [...new Set(dbEvents.map((e) => e.name).filter((n) => gcKind(n) !== null))] },
    waits,
  };
}

const importFile = await ensureStallInputs(root, [Number(values.turns)], { seed: 42, importMemories: Number(values['import-memories']), log });
const server = await serveStatic(root, PORT);
const results: unknown[] = [];
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    const { file, stalls, marks, load, sched } = await traced(run);
    // The stall reports first: the trace's analysis can fail (a trace too long to read) after a run of minutes.
    writeFileSync(resolve(values.out!.replace(/\.json$/, `-${run}.stalls.json`)), `${JSON.stringify({ load, marks, stalls }, null, 1)}\n`);
    const events = await readTrace(file);
    const a = analyse(events, stalls, marks, sched);
    log(`run ${run}: load ${load.join('→')}, ${events.length} trace events, clock drift db ${a.driftMs.dbMs.toFixed(3)} / page ${a.driftMs.pageMs.toFixed(3)} ms, threads ${a.threads.db.name} / ${a.threads.page.name}`);
    for (const s of stalls) log(`  ${s.job}: longest ${s.maxWaitMs.toFixed(1)} ms, p95 ${s.p95WaitMs.toFixed(1)}`);
    for (const w of a.waits) {
      const gc = w.worker.gc.map((g) => `${g.name} (${g.kind}) ${g.inWindowMs}/${g.ms} ms cpu ${g.cpuMs ?? '?'} heap ${g.heapBeforeMb ?? '?'}→${g.heapAfterMb ?? '?'} MB`).join('; ');
      const k = (x: ReturnType<typeof schedOf>) => (x ? `run ${x.runningMs} / wait-cpu ${x.waitingForCpuMs} / asleep ${x.asleepMs}` : 'no sched');
      log(
        `  ${w.job} ${w.waitMs} ms: neither ${w.breakdown?.otherMs ?? '?'} ms = ${JSON.stringify(w.neitherSum)}; worker busy ${w.worker.busyMs} cpu ${w.worker.cpuMs} nothing ${w.worker.nothingMs}, gc ${w.worker.gcMs} [${gc}]; page busy ${w.page.busyMs} cpu ${w.page.cpuMs} gc ${w.page.gcMs}`,
      );
      log(`    kernel: worker ${k(w.worker.sched)}; page ${k(w.page.sched)}; neither ${w.neither.map((n) => k(n.sched)).join(' + ')}`);

    }
    log(`  DB worker GC: ${JSON.stringify({ major: a.gc.major, minor: a.gc.minor })}`);
    for (const g of a.gc.long) log(`    ${g.name} ${g.ms} ms cpu ${g.cpuMs} heap ${g.heapBeforeMb}→${g.heapAfterMb} MB [${g.phases.join(', ')}] kernel ${JSON.stringify(g.sched)} helpers ${JSON.stringify(g.helpers)}`);
    results.push({ run, load, trace: file, stalls: stalls.map((s) => ({ job: s.job, maxWaitMs: s.maxWaitMs, p95WaitMs: s.p95WaitMs, detail: s.detail })), ...a });
    writeFileSync(resolve(values.out!), `${JSON.stringify({ note: 'bench/speed/stall-trace.ts', variant: values.variant, turns: Number(values.turns), categories: CATEGORIES, runs: results }, null, 1)}\n`);
  }
} finally {
  server.close();
}
