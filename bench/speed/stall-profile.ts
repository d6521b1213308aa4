/**
 * What the DB worker was doing during the longest foreground waits of bench:speed's background jobs (issue 16
 * item 5): the stalls run (stall.ts) at one size with the worker's V8 CPU profiler on (over CDP, as
 * record-profile.ts), then each of the jobs' worst waits lined up with the worker's busy stretches around it —
 * self time per function and the app function that asked for it. `BENCH_PORT=4191 tsx bench/speed/stall-profile.ts
 * --root /tmp/stall-ab --variant A --turns 1000` (the root as stall-ab.ts leaves it: one build per variant — built with
 * `--minify false` so the profile names the functions —
 * prefill-<turns>.sqlite3, import-10000.json).
 */
import { writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBenchChromium } from './chromium';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import type { StallReport } from './stall';
import { bootWithDbWorker } from './worker-cdp';
import { readClock, sampleEpochMs, type ClockReading } from './profile-clock';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variant: { type: 'string', default: 'A' },
    turns: { type: 'string', default: '1000' },
    'interval-us': { type: 'string', default: '250' },
    out: { type: 'string', default: '/tmp/stall-profile.json' },
  },
});
const root = resolve(values.root!);
const PORT = Number(process.env.BENCH_PORT ?? 4191);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const server = await serveStatic(root, PORT);
const dir = join(root, `profile-trace-${process.pid}`);
const context = await launchBenchChromium(dir);
try {
  const { page, cdp, send } = await bootWithDbWorker(context, `http://127.0.0.1:${PORT}/${values.variant}/index.html?prefill=${encodeURIComponent(`/prefill-${values.turns}.sqlite3`)}`);
  type Bench = { engramBench: BenchApi };
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: Number(values['interval-us']) });
  await send('Profiler.start');
  // Each context's epoch clock beside the monotonic clock the profiles' times are on (profile-clock.ts).
  const epochNow = 'performance.timeOrigin + performance.now()';
  const clock = await readClock(async () => ((await send('Runtime.evaluate', { expression: epochNow, returnByValue: true })) as { result: { value: number } }).result.value);
  // The page's main thread too (where the probe runs and its answers land).
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: Number(values['interval-us']) });
  await cdp.send('Profiler.start');
  const pageClock = await readClock(async () => ((await cdp.send('Runtime.evaluate', { expression: epochNow, returnByValue: true })) as { result: { value: number } }).result.value);
  const stalls: StallReport[] = await page.evaluate(() => (window as unknown as Bench).engramBench.stalls({ importUrl: '/import-10000.json', exportChunks: 0 }));
  const { profile } = (await send('Profiler.stop')) as { profile: Profile };
  const pageProfile = ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile;
  // The stall reports as they are, with each longest wait's breakdown (stall.ts, store/worker-timeline.ts).
  writeFileSync(values.out!.replace(/\.json$/, '.stalls.json'), JSON.stringify(stalls));
  const analyse = (profile: Profile, clockAt: ClockReading) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anon)'}${f.url ? ` ${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`;
  };
  const stack = (id: number, depth = 12) => {
    const out: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined && out.length < depth; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (f.url && !f.url.includes('sqlite3') && f.functionName) out.push(label(cur));
    }
    return out.join(' < ');
  };
  // Sample times in epoch ms, from the profile's own startTime (profile-clock.ts). A profile started after the
  // clock's monotonic reading, or long before it, is on another clock: say so rather than line up nonsense.
  const leadMs = (clockAt.monotonicUs - profile.startTime) / 1000;
  if (leadMs < -1 || leadMs > 10_000) throw new Error(`the profile's startTime is ${leadMs.toFixed(1)} ms before the clock reading: not the monotonic clock`);
  const times = sampleEpochMs(profile, clockAt);
  const samples = profile.samples.map((id, i) => ({ id, at: times[i]! }));
  // What the thread did, 5 ms at a time, across a wait: the function most sampled in each bucket.
  const strip = (from: number, to: number) => {
    const out: string[] = [];
    for (let b = from; b < to; b += 5) {
      const n = new Map<string, number>();
      for (const x of samples) if (x.at >= b && x.at < b + 5) n.set(label(x.id), (n.get(label(x.id)) ?? 0) + 1);
      const top = [...n].sort((a, c) => c[1] - a[1])[0];
      out.push(`${(b - from).toFixed(0)}: ${top ? top[0] : '—'}`);
    }
    return out;
  };
  return stalls.map((s) => {
    const worst = s.worst.slice(0, 3).map((w) => {
      const inside = samples.filter((x) => x.at >= w.at - 5 && x.at <= w.at + w.waitMs + 5);
      const self = new Map<string, number>();
      const stacks = new Map<string, number>();
      let busy = 0;
      for (let i = 0; i < inside.length; i++) {
        const x = inside[i]!;
        const f = byId.get(x.id)!.callFrame.functionName;
        if (f === '(idle)') continue;
        const ms = (inside[i + 1]?.at ?? x.at) - x.at;
        busy += ms;
        self.set(label(x.id), (self.get(label(x.id)) ?? 0) + ms);
        const st = stack(x.id, 6);
        stacks.set(st, (stacks.get(st) ?? 0) + ms);
      }
      const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1)} ms ${k}`);
      return { waitMs: Math.round(w.waitMs * 10) / 10, busyMs: Math.round(busy), breakdown: w.breakdown, self: top(self, 8), stacks: top(stacks, 6), strip: strip(w.at - 5, w.at + w.waitMs + 5) };
    });
    return { job: s.job, maxWaitMs: s.maxWaitMs, p95: s.p95WaitMs, detail: s.detail, worstAt: s.worst.map((w) => [w.at, Math.round(w.waitMs)]), slices: s.slices, worst };
  });
  };
  const report = { clocks: { worker: clock, page: pageClock }, worker: analyse(profile, clock), page: analyse(pageProfile, pageClock) };
  writeFileSync(values.out!, `${JSON.stringify(report, null, 1)}\n`);
  writeFileSync(values.out!.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
  writeFileSync(values.out!.replace(/\.json$/, '.page.cpuprofile'), JSON.stringify(pageProfile));
  console.log(JSON.stringify(report, null, 1));
} finally {
  await context.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
