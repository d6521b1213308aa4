/**
 * Profiling aid for issue 17 (not part of `npm run bench:speed`): where episode.query's time goes IN CHROMIUM, in the
 * speed harness's own episode phase (episodes.ts: 300 memories stored, 10,000 episodes recorded one at a time, then
 * 200 episode.query timed alternately with memory.retrieve — the goal's pairing), with the DB worker's V8 CPU
 * profiler on for the queries (started when the page says the recording is done; over CDP, as record-profile.ts) and
 * the worker's timeline (store/worker-timeline.ts) on for the whole phase.
 *
 *   BENCH_PORT=4192 npx tsx bench/speed/episode-query-cdp.ts [--episodes 10000] [--out /tmp/eq.json] [--skip-build]
 *     [--dist dir] [--build-only]   (A/B: build each worktree's page into its own dir, then run them alternately)
 *
 * Each query's round trip is split into the worker's handling (its timeline entry) and the rest (the message both
 * ways, the page); the worker's samples inside the handling into SQLite's wasm, JS by function and the collector,
 * and by the nearest app function that asked for them (ranked, recentOfScene, getMany …). Printed for all queries
 * and for the slowest tenth (what the p95 is made of), with what else the worker ran around the slow ones (keeper
 * checkpoints, other calls), and the size of what an answer carries over postMessage.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { generateQueries } from '../lib/corpus';
import { launchBenchChromium } from './chromium';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import { readClock, sampleEpochMs, type ClockReading, type CpuProfile } from './profile-clock';
import { dbWorkerSession } from './worker-cdp';
import type { TimelineEntry } from '../../src/lib/engine/store/worker-timeline';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const PORT = Number(process.env.BENCH_PORT ?? 4190);
const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '10000' },
    memories: { type: 'string', default: '300' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '42' },
    'interval-us': { type: 'string', default: '200' },
    dist: { type: 'string', default: join(REPO, 'bench/.cache/episode-query-cdp') },
    out: { type: 'string', default: '/tmp/episode-query-cdp.json' },
    'skip-build': { type: 'boolean', default: false },
    /** Only build the page into --dist (A/B: one build per worktree, then runs alternately with --skip-build). */
    'build-only': { type: 'boolean', default: false },
  },
});
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** The worker's V8 CPU profile: its call tree's nodes and the samples (profile-clock.ts puts them on the epoch). */
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = CpuProfile & { nodes: ProfileNode[] };

function kindOf(f: ProfileNode['callFrame']): string {
  if (f.functionName === '(garbage collector)') return 'gc';
  if (f.functionName === '(idle)' || f.functionName === '(program)' || f.functionName === '(root)') return f.functionName;
  if (f.url.startsWith('wasm://') || /^\$?func\d+|^\$?wasm-function|^\$sqlite3/.test(f.functionName)) return 'sqlite wasm';
  return 'js';
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0) * 100) / 100;
};
const r1 = (x: number) => Math.round(x * 100) / 100;

/** The report beside the raw profile (open it in DevTools' Performance panel). */
function saveReport(path: string, report: object, profile: Profile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(report, null, 1)}\n`);
  writeFileSync(path.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
  log(`→ ${path}`);
}

async function main(): Promise<void> {
  const dist = resolve(values.dist!);
  if (!values['skip-build']) {
    log(`building the harness page unminified → ${dist}`);
    await build({ configFile: join(HERE, 'vite.config.ts'), logLevel: 'warn', build: { outDir: dist, minify: false } });
  }
  if (values['build-only']) return;
  const count = Number(values.episodes);
  const queries = Number(values.queries);
  const seed = Number(values.seed);
  const server = await serveStatic(dist, PORT);
  const profileDir = join(REPO, `bench/.cache/chromium-profile-eq-${process.pid}`);
  const context = await launchBenchChromium(profileDir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const { send, attached } = await dbWorkerSession(cdp);
    let profiling: Promise<ClockReading> | null = null;
    const startProfiler = async (): Promise<ClockReading> => {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: Number(values['interval-us']) });
      await send('Profiler.start');
      const epochNow = 'performance.timeOrigin + performance.now()';
      return readClock(async () => ((await send('Runtime.evaluate', { expression: epochNow, returnByValue: true })) as { result: { value: number } }).result.value);
    };
    page.on('console', (m) => {
      const text = m.text();
      if (text.startsWith('[bench]') || m.type() === 'error') log(`  page: ${text.slice(0, 200)}`);
      // The recording's last progress line: the queries come next (after the rules and the paired memories' deletes).
      if (text === `[bench] episodes ${count}/${count}` && !profiling) profiling = startProfiler();
    });
    await page.goto(`http://127.0.0.1:${PORT}/`);
    type Bench = { engramBench: BenchApi };
    const boot = await page.evaluate(() => (window as unknown as Bench).engramBench.boot());
    if (boot.storage !== 'opfs') throw new Error(`not on OPFS: ${boot.storage}`);
    for (let i = 0; i < 50 && !attached(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!attached()) throw new Error('the DB worker was not attached');
    const retrieveQueries = generateQueries({ seed, perKind: 50 }).map((q) => q.text);
    await page.evaluate((a) => (window as unknown as Bench).engramBench.storeMemories(a), { seed, count: Number(values.memories) });
    await page.evaluate(() => (window as unknown as Bench).engramBench.recordTimeline(true));
    const load0 = loadavg()[0] ?? 0;
    log(`${count} episodes, then ${queries} episode.query alternately with memory.retrieve; load ${load0.toFixed(1)}`);
    const report = await page.evaluate((a) => (window as unknown as Bench).engramBench.episodes(a), {
      seed,
      count,
      queries,
      lists: 0,
      rules: 60,
      samples: 0,
      retrieveQueries,
    });
    if (!profiling) throw new Error('the recording never said it was done: no profile');
    const clock = await (profiling as Promise<ClockReading>);
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    const load1 = loadavg()[0] ?? 0;
    const tl = (await page.evaluate((a) => (window as unknown as Bench).engramBench.timeline(a), { from: 0, to: Date.now() + 60_000 })) as TimelineEntry[];
    await page.evaluate(() => (window as unknown as Bench).engramBench.recordTimeline(false));
    const calls = tl.filter((e) => e.kind === 'call' && e.method === 'episode.query');
    if (calls.length !== report.queryMs.length) throw new Error(`timeline has ${calls.length} episode.query calls, the page timed ${report.queryMs.length}`);
    const retrieves = tl.filter((e) => e.kind === 'call' && e.method === 'memory.retrieve').slice(-report.memoryRetrievePairedMs.length);

    // What one answer carries over postMessage (the page gets the structured clone; JSON length as its measure).
    const projects = (await page.evaluate(() => (window as unknown as Bench).engramBench.answer({ method: 'project.list', input: {} }))) as { id: string; name: string }[];
    const novel = projects.find((p) => p.name === 'bench novel');
    const sample = (await page.evaluate((a) => (window as unknown as Bench).engramBench.answer(a as never), {
      method: 'episode.query',
      input: { projectId: novel?.id, sceneType: 'dialogue', text: retrieveQueries[1] ?? 'x' },
    })) as { items: { episode: unknown; why: unknown }[] };
    const bytes = JSON.stringify(sample).length;
    const episodeBytes = sample.items.reduce((s, i) => s + JSON.stringify(i.episode).length, 0);

    // The worker's samples on the epoch clock, each with its kind, label and nearest app function.
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (id: number) => {
      const f = byId.get(id)!.callFrame;
      return `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim();
    };
    /** The nearest named app function above a sample (not the wasm, not the sqlite3 glue). */
    const appCaller = (id: number): string => {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame;
        if (f.url && !f.url.startsWith('wasm://') && !/sqlite3|index\.mjs|sqlite-wasm/.test(f.url) && f.functionName) return label(cur);
      }
      return '?';
    };
    const STEPS = ['safeParse', 'recallMatch', 'scope', 'ranked', 'recentOfScene', 'decayScore', 'getMany', 'recallEpisodes', 'answer', 'handle'];
    /** The recall step a sample belongs to: the nearest frame named like one of STEPS. */
    const stepOf = (id: number): string => {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame.functionName;
        if (STEPS.includes(f)) return f;
      }
      return '(outside)';
    };
    const times = sampleEpochMs(profile, clock);
    const samples = profile.samples.map((id, i) => ({ id, at: times[i]!, ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 }));
    type Agg = { kinds: Map<string, number>; self: Map<string, number>; callers: Map<string, number>; steps: Map<string, number>; ms: number };
    const agg = (): Agg => ({ kinds: new Map(), self: new Map(), callers: new Map(), steps: new Map(), ms: 0 });
    const bump = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
    const inside = (from: number, to: number, into: Agg) => {
      for (const s of samples) {
        if (s.at < from || s.at > to) continue;
        const f = byId.get(s.id)!.callFrame;
        const k = kindOf(f);
        if (k === '(idle)') continue;
        into.ms += s.ms;
        bump(into.kinds, k, s.ms);
        bump(into.self, label(s.id), s.ms);
        bump(into.steps, stepOf(s.id), s.ms);
        if (k !== 'js') bump(into.callers, `${k} ← ${appCaller(s.id)}`, s.ms);
      }
    };
    const top = (m: Map<string, number>, n: number, per: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / per).toFixed(3)} ms  ${k}`);
    const view = (a: Agg, per: number) => ({ sampled_ms_per_query: r1(a.ms / per), kinds: top(a.kinds, 6, per), steps: top(a.steps, 12, per), self: top(a.self, 25, per), wasm_by_caller: top(a.callers, 12, per) });

    const rows = calls.map((c, i) => ({ i, at: c.at, workerMs: c.ms, roundTripMs: report.queryMs[i]!, retrieveMs: report.memoryRetrievePairedMs[i] ?? null, retrieveWorkerMs: retrieves[i]?.ms ?? null }));
    const all = agg();
    for (const r of rows) inside(r.at, r.at + r.workerMs, all);
    const slow = [...rows].sort((a, b) => b.roundTripMs - a.roundTripMs).slice(0, Math.max(1, Math.round(rows.length / 10)));
    const slowAgg = agg();
    for (const r of slow) inside(r.at, r.at + r.workerMs, slowAgg);
    const slowDetail = slow.map((r) => {
      // What the worker ran in the round trip's span before it took this query up (keeper checkpoints, calls).
      const from = r.at - (r.roundTripMs - r.workerMs);
      const around = tl.filter((e) => e.at + e.ms >= from - 2 && e.at <= r.at + r.workerMs && !(e.kind === 'call' && e.at === r.at)).map((e) => `${e.kind}${e.method ? ` ${e.method}` : ''} ${r1(e.ms)} ms at ${r1(e.at - r.at)}`);
      const a = agg();
      inside(r.at, r.at + r.workerMs, a);
      return { query: r.i, roundTripMs: r1(r.roundTripMs), workerMs: r1(r.workerMs), notWorkerMs: r1(r.roundTripMs - r.workerMs), sampledMs: r1(a.ms), kinds: top(a.kinds, 4, 1), steps: top(a.steps, 6, 1), around };
    });
    const out = {
      load: { start: load0, end: load1 },
      episodes: count,
      answer_bytes: { json: bytes, episodes: sample.items.length, whole_episode_records: episodeBytes },
      episode_query: {
        round_trip: { p50: pct(rows.map((r) => r.roundTripMs), 0.5), p95: pct(rows.map((r) => r.roundTripMs), 0.95) },
        worker: { p50: pct(rows.map((r) => r.workerMs), 0.5), p95: pct(rows.map((r) => r.workerMs), 0.95) },
        not_worker: { p50: pct(rows.map((r) => r.roundTripMs - r.workerMs), 0.5), p95: pct(rows.map((r) => r.roundTripMs - r.workerMs), 0.95) },
      },
      memory_retrieve: {
        round_trip: { p50: pct(report.memoryRetrievePairedMs, 0.5), p95: pct(report.memoryRetrievePairedMs, 0.95) },
        worker: { p50: pct(retrieves.map((r) => r.ms), 0.5), p95: pct(retrieves.map((r) => r.ms), 0.95) },
      },
      ratio_p95: r1(pct(rows.map((r) => r.roundTripMs), 0.95) / Math.max(0.01, pct(report.memoryRetrievePairedMs, 0.95))),
      all_queries: view(all, rows.length),
      slowest_tenth: view(slowAgg, slow.length),
      slowest: slowDetail,
      per_query: rows,
    };
    saveReport(values.out!, out, profile);
    console.log(JSON.stringify({ ...out, per_query: undefined, slowest: out.slowest.slice(0, 8) }, null, 1));
  } finally {
    await context.close();
    server.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

await main();
