/**
 * Cold start A/B (issue 16 item 3): two harness builds served under one origin (so they open the same OPFS file),
 * alternating cold starts of A, B and the bare sqlite-wasm floor in one browser, several rounds; or, with --trace,
 * one CPU-sampled cold start of each build and of the bare floor: the worker's long tasks in order, its top costs, and
 * what its thread ran between each two start-up marks (cold-timeline.ts).
 *
 *   npx vite build --config bench/speed/vite.config.ts --outDir /tmp/ab/a   (in a checkout of the base commit)
 *   npx vite build --config bench/speed/vite.config.ts --outDir /tmp/ab/b   (in this checkout)
 *   npx tsx bench/speed/cold-ab.ts --root /tmp/ab --variants a,b --rounds 15 [--turns 1000] [--out /tmp/ab.json]
 *   npx tsx bench/speed/cold-ab.ts --root /tmp/ab --variants b --trace     (best with an unminified build)
 *   npx tsx bench/speed/cold-ab.ts --root /tmp/ab --variants a,b --turns 100000 --prefill   (large sizes: the turns
 *     are written natively, bulk-fill.ts as in bench:speed, and imported into the OPFS pool on the first load)
 *
 * Each variant's cold start is page navigation → first recall answered (performance.now() in the page); the bare
 * floor opens the same file and runs one FTS query. Order rotates each round so no variant always goes first.
 */
import type { Page } from '@playwright/test';
import { launchBenchChromium } from './chromium';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveStatic } from './serve';
import { openNative } from './native';
import type { BenchApi } from './page';
import { startupMarksInTrace, startupTimeline, type TimelineEvent } from './cold-timeline';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variants: { type: 'string', default: 'a,b' },
    rounds: { type: 'string', default: '15' },
    turns: { type: 'string', default: '1000' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '4194' },
    trace: { type: 'boolean', default: false },
    out: { type: 'string' },
    prefill: { type: 'boolean', default: false },
  },
});
if (!values.root) throw new Error('--root <dir holding one harness build per variant> is required');
const variants = values.variants!.split(',');
/** The variants and the bare floor, whose stages (the same marks, bare.worker.ts) are reported beside theirs. */
const order = [...variants, 'bare'];
const rounds = Number(values.rounds);
const base = `http://127.0.0.1:${values.port}`;

type Bench = { engramBench: BenchApi };
async function call<K extends keyof BenchApi>(page: Page, name: K, arg?: Parameters<BenchApi[K]>[0]): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(([n, a]) => ((window as unknown as Bench).engramBench[n] as (x: unknown) => unknown)(a), [name, arg] as const) as Promise<
    Awaited<ReturnType<BenchApi[K]>>
  >;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  id?: string;
  args?: { name?: string; data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Self and inclusive sampled time per function on the DB worker's thread. */
function workerCosts(events: TraceEvent[]): string {
  const workerTids = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread').map((e) => `${e.pid}:${e.tid}`),
  );
  // Chunks come from a profiler thread: the 'Profile' event with the same id names the sampled thread.
  const threadOf = new Map(events.filter((e) => e.name === 'Profile' && e.id).map((e) => [e.id!, `${e.pid}:${e.tid}`]));
  const byProfile = new Map<string, { key: string; nodes: Map<number, ProfileNode>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const key = threadOf.get(e.id) ?? `${e.pid}:${e.tid}`;
    const p = byProfile.get(e.id) ?? { key, nodes: new Map<number, ProfileNode>(), samples: [] as number[], deltas: [] as number[] };
    byProfile.set(e.id, p);
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(e.args?.data?.cpuProfile?.samples ?? []));
    p.deltas.push(...(e.args?.data?.timeDeltas ?? []));
  }
  const lines: string[] = [];
  for (const [id, p] of byProfile) {
    if (!workerTids.has(p.key)) continue;
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${(n.callFrame.url ?? '').split('/').pop()}:${(n.callFrame.lineNumber ?? -1) + 1}`;
    let total = 0;
    let idle = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const dt = (p.deltas[i + 1] ?? 0) / 1000;
      const leaf = p.nodes.get(p.samples[i]!);
      if (!leaf) continue;
      if (leaf.callFrame.functionName === '(idle)') {
        idle += dt;
        continue;
      }
      total += dt;
      self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let n: ProfileNode | undefined = leaf; n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) {
        const k = name(n);
        if (seen.has(k)) continue;
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + dt);
      }
    }
    if (total < 5) continue;
    // The call tree (by node, inclusive ≥ 3 ms, 6 levels), for the module evaluation and the first call.
    const nodeIncl = new Map<number, number>();
    for (let i = 0; i < p.samples.length; i++) {
      const dt = (p.deltas[i + 1] ?? 0) / 1000;
      for (let n = p.nodes.get(p.samples[i]!); n; n = n.parent === undefined ? undefined : p.nodes.get(n.parent)) nodeIncl.set(n.id, (nodeIncl.get(n.id) ?? 0) + dt);
    }
    const children = new Map<number, ProfileNode[]>();
    for (const n of p.nodes.values()) if (n.parent !== undefined) children.set(n.parent, [...(children.get(n.parent) ?? []), n]);
    const tree: string[] = [];
    const walk = (n: ProfileNode, depth: number) => {
      const t = nodeIncl.get(n.id) ?? 0;
      if (t < 3 || depth > 7) return;
      tree.push(`${'  '.repeat(depth)}${t.toFixed(1)} ${name(n)}`);
      for (const c of (children.get(n.id) ?? []).sort((a, b) => (nodeIncl.get(b.id) ?? 0) - (nodeIncl.get(a.id) ?? 0))) walk(c, depth + 1);
    };
    const root = [...p.nodes.values()].find((n) => n.parent === undefined);
    if (root && process.env.COLD_AB_TREE) walk(root, 0);
    lines.push(`worker profile ${id}: busy ${total.toFixed(1)} ms, idle ${idle.toFixed(1)} ms`);
    const top = (m: Map<string, number>, n: number) =>
      [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `  ${v.toFixed(1).padStart(7)}  ${k}`);
    lines.push(' self:', ...top(self, 30), ' inclusive:', ...top(incl, 50), ...tree);
  }
  return lines.join('\n');
}

/**
 * The DB worker's long tasks in order (ms from its first one): each module's compile (not streamed in a worker: it
 * holds the thread) and evaluation, and the tasks that run it — where the time goes that no sampled function shows.
 */
function workerTasks(events: (TraceEvent & { ts?: number; dur?: number })[]): string {
  const workers = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread').map((e) => `${e.pid}:${e.tid}`),
  );
  const kinds = new Set(['v8.compileModule', 'v8.evaluateModule', 'v8.callFunction', 'v8.compile', 'MajorGC', 'MinorGC']);
  const byThread = new Map<string, string[]>();
  const tasks = events
    .filter((e) => kinds.has(e.name) && workers.has(`${e.pid}:${e.tid}`) && (e.dur ?? 0) >= 5000)
    .sort((a, b) => a.ts! - b.ts!);
  const start = new Map<string, number>();
  for (const e of tasks) {
    const key = `${e.pid}:${e.tid}`;
    const t0 = start.get(key) ?? e.ts!;
    start.set(key, t0);
    const url = (e.args as { data?: { url?: string } } | undefined)?.data?.url?.split('/').pop() ?? '';
    const line = `  ${((e.ts! - t0) / 1000).toFixed(0).padStart(6)} +${(e.dur! / 1000).toFixed(0).padStart(4)} ms  ${e.name} ${url}`;
    byThread.set(key, [...(byThread.get(key) ?? []), line]);
  }
  return [...byThread].map(([key, lines]) => [`worker ${key} tasks ≥ 5 ms:`, ...lines].join('\n')).join('\n');
}

async function main(): Promise<void> {
  const server = await serveStatic(values.root!, Number(values.port));
  const profileDir = mkdtempSync(join(tmpdir(), 'cold-ab-'));
  const context = await launchBenchChromium(profileDir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    // An instrumented build's per-module evaluation times (the worker's console reaches the page's listener).
    page.on('console', (m) => m.text().startsWith('[modeval]') && console.log(m.text()));
    if (values.prefill) {
      // As bench:speed fills its large sizes (run.ts): natively, then imported into the pool before the worker opens.
      mkdirSync(join(values.root!, 'prefill'), { recursive: true });
      const native = openNative({ path: join(profileDir, 'native.sqlite3'), seed: 42, total: Number(values.turns) });
      await native.fillTo(Number(values.turns));
      native.snapshot(join(values.root!, 'prefill', 'cold-ab.sqlite3'));
      native.close();
      await page.goto(`${base}/${variants[0]}/index.html?prefill=/prefill/cold-ab.sqlite3`);
      await call(page, 'boot');
      rmSync(join(values.root!, 'prefill'), { recursive: true, force: true });
    } else {
      await page.goto(`${base}/${variants[0]}/index.html`);
      await call(page, 'boot');
      await call(page, 'fillTurns', { seed: 42, from: 0, to: Number(values.turns), open: null });
    }
    if (values.trace) {
      const browser = context.browser();
      // The bare floor is traced too, so the two DB workers' timelines can be set side by side.
      for (const v of order) {
        const url = v === 'bare' ? `${base}/${variants[0]}/index.html?bare=1` : `${base}/${v}/index.html`;
        // A warm-up load, so the traced one is as cold as the measured ones (HTTP, compile caches).
        await page.goto(url);
        await call(page, 'boot');
        await browser!.startTracing(page, { categories: ['disabled-by-default-v8.cpu_profiler', 'v8', 'blink.user_timing', '__metadata'] });
        await page.goto(url);
        const boot = await call(page, 'boot');
        const stages = await call(page, 'startupStages');
        const buf = await browser!.stopTracing();
        const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
        if (process.env.COLD_AB_DEBUG) writeFileSync(`/tmp/cold-ab-trace-${v}.json`, buf);
        console.log(`== ${v}: first recall ${boot.firstRecallMs.toFixed(0)} ms; stages ${JSON.stringify(Object.fromEntries(Object.entries(stages).map(([k, x]) => [k, Math.round(x)])))}`);
        console.log(workerTasks(events));
        console.log(workerCosts(events));
        // Between each two start-up marks (cold-timeline.ts): what the marking worker's thread ran.
        for (const thread of startupMarksInTrace(events as unknown as TimelineEvent[]).keys())
          console.log([`worker ${thread} between its start-up marks:`, ...startupTimeline(events as unknown as TimelineEvent[], thread)].join('\n'));
      }
      return;
    }
    const runs: Record<string, number[]> = Object.fromEntries(order.map((v) => [v, [] as number[]]));
    const first = variants[0]!;
    const stages: Record<string, Record<string, number>[]> = Object.fromEntries(order.map((v) => [v, []]));
    for (let r = 0; r < rounds; r++) {
      const rotated = order.map((_, i) => order[(i + r) % order.length]!);
      for (const v of rotated) {
        await page.goto(v === 'bare' ? `${base}/${first}/index.html?bare=1` : `${base}/${v}/index.html`);
        runs[v]!.push((await call(page, 'boot')).firstRecallMs);
        stages[v]!.push(await call(page, 'startupStages'));
      }
    }
    const bare = median(runs.bare!);
    const result = {
      turns: Number(values.turns),
      rounds,
      load: (await import('node:os')).loadavg(),
      medians: Object.fromEntries(Object.entries(runs).map(([k, xs]) => [k, Math.round(median(xs) * 10) / 10])),
      over_bare: Object.fromEntries(variants.map((v) => [v, Math.round((median(runs[v]!) / bare) * 1000) / 1000])),
      paired: variants.slice(1).map((v) => ({
        [`${v}/${first}`]: Math.round(median(runs[v]!.map((x, i) => x / runs[first]![i]!)) * 1000) / 1000,
      })),
      stages: Object.fromEntries(
        order.map((v) => [
          v,
          Object.fromEntries(Object.keys(stages[v]?.[0] ?? {}).map((k) => [k, Math.round(median((stages[v] ?? []).map((s) => s[k] ?? NaN)))])),
        ]),
      ),
      runs,
    };
    console.log(JSON.stringify({ ...result, runs: undefined }, null, 1));
    if (values.out) writeFileSync(values.out, JSON.stringify(result, null, 1));
  } finally {
    await context.close();
    server.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

await main();
