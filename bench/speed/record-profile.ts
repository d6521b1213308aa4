/**
 * What a foreground `episode.record` is made of in Chromium on OPFS (issues 16/19: the lifecycle bench's idle
 * baseline already waits ~48 ms behind single records). `BENCH_PORT=4193 tsx bench/speed/record-profile.ts
 * [--writes 3000] [--old 5000] [--interval-us 200] [--out /tmp/record-profile.json]`
 *
 * The lifecycle bench's page and load (lifecycle-load.ts: the same records, queries and rules.list, the stall
 * probe over every write, no clean-up), built unminified into its own directory so the profile names the
 * functions. The DB worker is sampled with the V8 CPU profiler over CDP (Target.setAutoAttach on the page, the
 * worker's session reached through Target.sendMessageToTarget). Reported: where the worker's busy time went in
 * all, and in its busy stretches of ≥ 20 ms (what a probe waits behind) — self time per function, with the
 * OPFS handle's flush/write, the garbage collector and SQLite's wasm told apart.
 */
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { launchBenchChromium } from './chromium';
import { serveStatic } from './serve';
import { writeOldEpisodes } from './lifecycle-prefill';
import type { BenchApi } from './page';
import { dbWorkerSession } from './worker-cdp';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const DIST = join(REPO, 'bench/.cache/record-profile');
const PORT = Number(process.env.BENCH_PORT ?? 4190);
const { values } = parseArgs({
  options: {
    writes: { type: 'string', default: '3000' },
    old: { type: 'string', default: '5000' },
    'interval-us': { type: 'string', default: '200' },
    out: { type: 'string', default: '/tmp/record-profile.json' },
    'skip-build': { type: 'boolean', default: false },
  },
});
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A sample's leaf told as one of a few kinds, then by function. */
function kindOf(frame: ProfileNode['callFrame']): string {
  const f = frame.functionName;
  if (f === '(garbage collector)') return 'gc';
  if (f === '(idle)' || f === '(program)' || f === '(root)') return f;
  if (f === 'flush') return 'opfs flush';
  if (f === 'write' && !frame.url) return 'opfs write';
  if (f === 'read' && !frame.url) return 'opfs read';
  if (f === 'truncate' && !frame.url) return 'opfs truncate';
  if (frame.url.includes('wasm://') || /^\$?sqlite3|^\$?func\d+|^\$?wasm-function/.test(f)) return 'sqlite wasm';
  return 'js';
}

function analyse(p: Profile, stretchMs: number) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The nearest named app function above a node (not the wasm or the handle): where the time was asked for. */
  const appCaller = (id: number): string => {
    let cur = parent.get(id);
    while (cur !== undefined) {
      const n = byId.get(cur)!;
      const f = n.callFrame;
      if (f.url && !f.url.includes('sqlite3') && !f.url.includes('wasm') && f.functionName) return `${f.functionName} (${f.url.split('/').pop()}:${f.lineNumber + 1})`;
      cur = parent.get(cur);
    }
    return '?';
  };
  const label = (id: number) => {
    const n = byId.get(id)!;
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}` : ''}`.trim();
  };
  type Agg = { kinds: Map<string, number>; fns: Map<string, number>; callers: Map<string, number>; ms: number };
  const agg = (): Agg => ({ kinds: new Map(), fns: new Map(), callers: new Map(), ms: 0 });
  const add = (a: Agg, id: number, ms: number) => {
    const f = byId.get(id)!.callFrame;
    const k = kindOf(f);
    a.ms += ms;
    a.kinds.set(k, (a.kinds.get(k) ?? 0) + ms);
    a.fns.set(label(id), (a.fns.get(label(id)) ?? 0) + ms);
    if (k === 'js' || k === 'gc') return;
    const c = `${k} ← ${appCaller(id)}`;
    a.callers.set(c, (a.callers.get(c) ?? 0) + ms);
  };
  const all = agg();
  const slow = agg();
  // Busy stretches: consecutive samples that are not idle.
  let stretch: { id: number; ms: number }[] = [];
  let stretchTotal = 0;
  const stretches: number[] = [];
  const endStretch = () => {
    if (stretchTotal >= stretchMs) for (const s of stretch) add(slow, s.id, s.ms);
    if (stretchTotal > 0) stretches.push(stretchTotal);
    stretch = [];
    stretchTotal = 0;
  };
  for (let i = 0; i < p.samples.length; i++) {
    const id = p.samples[i]!;
    // The sample's time is the delta to the next one.
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const k = kindOf(byId.get(id)!.callFrame);
    if (k === '(idle)') {
      endStretch();
      continue;
    }
    add(all, id, ms);
    stretch.push({ id, ms });
    stretchTotal += ms;
  }
  endStretch();
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => ({ what: k, ms: Math.round(v * 10) / 10 }));
  const view = (a: Agg) => ({ busy_ms: Math.round(a.ms), kinds: top(a.kinds, 10), self: top(a.fns, 40), io_and_wasm_by_caller: top(a.callers, 30) });
  const sorted = [...stretches].sort((a, b) => a - b);
  return {
    stretches: { n: sorted.length, over_20ms: sorted.filter((x) => x >= stretchMs).length, max: Math.round((sorted.at(-1) ?? 0) * 10) / 10, p99: Math.round((sorted[Math.floor(sorted.length * 0.99)] ?? 0) * 10) / 10 },
    all: view(all),
    [`stretches_over_${stretchMs}ms`]: view(slow),
  };
}

async function main(): Promise<void> {
  if (!values['skip-build']) {
    log('building the harness page unminified (bench/speed → bench/.cache/record-profile)');
    await build({ configFile: join(HERE, 'vite.config.ts'), logLevel: 'warn', build: { outDir: DIST, minify: false } });
  }
  const writes = Number(values.writes);
  const oldCount = Number(values.old);
  mkdirSync(join(DIST, 'prefill'), { recursive: true });
  const file = join(DIST, 'prefill', 'old.sqlite3');
  if (oldCount > 0) await writeOldEpisodes(file, { seed: 42, count: oldCount });
  const server = await serveStatic(DIST, PORT);
  const profileDir = join(REPO, 'bench/.cache/chromium-profile-record');
  const context = await launchBenchChromium(profileDir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.text().startsWith('[bench]') || m.type() === 'error') log(`  page: ${m.text().slice(0, 200)}`);
    });
    const cdp = await context.newCDPSession(page);
    const { send, attached } = await dbWorkerSession(cdp);
    await page.goto(`http://127.0.0.1:${PORT}/${oldCount > 0 ? '?prefill=/prefill/old.sqlite3' : ''}`);
    type Bench = { engramBench: BenchApi };
    const boot = await page.evaluate(() => (window as unknown as Bench).engramBench.boot());
    if (boot.storage !== 'opfs') throw new Error(`not on OPFS: ${boot.storage}`);
    for (let i = 0; i < 50 && !attached(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!attached()) throw new Error('the DB worker was not attached');
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: Number(values['interval-us']) });
    await send('Profiler.start');
    const load0 = loadavg()[0];
    log(`${writes} writes (lifecycle load, no clean-up), load ${load0?.toFixed(1)}`);
    // The clean-up comes after the last write: every write runs with the baseline probe (no clean-up) beside it.
    const report = await page.evaluate((a) => (window as unknown as Bench).engramBench.lifecycleLoad(a), { seed: 42, writes, cleanupAt: writes, baselineWrites: writes, cleanup: false });
    const { profile } = (await send('Profiler.stop')) as { profile: Profile };
    const q = (xs: number[], p: number) => {
      const s = [...xs].sort((a, b) => a - b);
      return Math.round((s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0) * 10) / 10;
    };
    const rec = report.ms['episode.record'];
    const out = {
      load: { start: load0, end: loadavg()[0] },
      writes,
      record_ms: { p50: q(rec, 0.5), p95: q(rec, 0.95), p99: q(rec, 0.99), max: q(rec, 1) },
      baseline_stall: report.baselineStall ? { max: report.baselineStall.maxWaitMs, p95: report.baselineStall.p95WaitMs } : null,
      records_over_20ms: rec.filter((x) => x >= 20).length,
      profile: analyse(profile, 20),
    };
    mkdirSync(dirname(values.out!), { recursive: true });
    writeFileSync(values.out!, `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(values.out!.replace(/\.json$/, '.cpuprofile'), JSON.stringify(profile));
    console.log(JSON.stringify({ ...out, profile: undefined }, null, 1));
    log(`→ ${values.out}`);
  } finally {
    await context.close();
    server.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
