/**
 * The WAL checkpoint mark A/B in the browser (issue 16): the harness built once per mark (open-wasm.ts reads
 * VITE_BENCH_WAL_FRAMES at build time, the harness only), served under one origin, each run in a fresh Chromium
 * profile from the same native prefill, alternating the marks round by round (order rotates). Per run: the import
 * apply's and the reindex's longest foreground wait and p95 (the stall probe, stall.ts) and their slowest slices'
 * make-up — steps, COMMIT ms, the COMMIT's pages written and flushes (io-counters.ts).
 *
 *   for v in 200 1000; do VITE_BENCH_WAL_FRAMES=$v npx vite build --config bench/speed/vite.config.ts \
 *     --outDir /tmp/walab/w$v --emptyOutDir; done
 *   BENCH_PORT=4194 npx tsx bench/speed/wal-ab.ts --root /tmp/walab --variants w200,w1000 --turns 100000 --rounds 2 \
 *     [--out bench/results/wal-ab-100k.json]
 *
 * The prefill (better-sqlite3, bulk) and the backup file are written into --root once and reused by later runs.
 */
import type { Page } from '@playwright/test';
import { launchBenchChromium } from './chromium';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openNative, writeMemoryBackup } from './native';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import type { StallReport } from './stall';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variants: { type: 'string', default: 'w200,w1000' },
    rounds: { type: 'string', default: '2' },
    turns: { type: 'string', default: '100000' },
    'import-memories': { type: 'string', default: '10000' },
    seed: { type: 'string', default: '42' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '4194' },
    out: { type: 'string' },
  },
});
if (!values.root) throw new Error('--root <dir holding one harness build per variant> is required');
const root = resolve(values.root);
const variants = values.variants!.split(',');
const rounds = Number(values.rounds);
const turns = Number(values.turns);
const seed = Number(values.seed);
const port = Number(values.port);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

type Bench = { engramBench: BenchApi };
async function call<K extends keyof BenchApi>(page: Page, name: K, arg?: Parameters<BenchApi[K]>[0]): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(([n, a]) => ((window as unknown as Bench).engramBench[n] as (x: unknown) => unknown)(a), [name, arg] as const) as Promise<
    Awaited<ReturnType<BenchApi[K]>>
  >;
}

const prefillFile = `prefill-${turns}.sqlite3`;
const importFile = `import-${values['import-memories']}.json`;
if (!existsSync(join(root, prefillFile))) {
  log(`native prefill of ${turns.toLocaleString('en')} turns`);
  const native = openNative({ path: join(root, 'native.sqlite3'), seed, total: turns });
  await native.fillTo(turns);
  native.snapshot(join(root, prefillFile));
  rmSync(join(root, 'native.sqlite3'), { force: true });
}
if (!existsSync(join(root, importFile))) await writeMemoryBackup(join(root, importFile), { seed, count: Number(values['import-memories']) });

interface Row {
  variant: string;
  round: number;
  load: number;
  job: string;
  jobMs: number;
  maxWaitMs: number;
  p95WaitMs: number;
  detail: Record<string, number>;
  /** The slowest slices: ms, steps, COMMIT ms, the COMMIT's pages written and flushes. */
  slices: { ms: number; steps: number; commitMs: number; commitPages: number | null; commitFlushes: number | null; stepsPages: number | null }[];
}

async function once(variant: string, round: number): Promise<Row[]> {
  const profile = join(root, `profile-${variant}`);
  const context = await launchBenchChromium(profile);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => log(`  page error: ${e.message}`));
    page.setDefaultTimeout(0);
    await page.goto(`http://127.0.0.1:${port}/${variant}/index.html?prefill=${encodeURIComponent(`/${prefillFile}`)}`);
    const boot = await call(page, 'boot');
    if (boot.storage !== 'opfs') throw new Error(`not on OPFS (${boot.storage})`);
    const load = loadavg()[0] ?? 0;
    const stalls: StallReport[] = await call(page, 'stalls', { importUrl: `/${importFile}`, exportChunks: 0 });
    return stalls
      .filter((s) => s.job === 'import apply' || s.job === 'reindex' || s.job.startsWith('idle'))
      .map((s) => ({
        variant,
        round,
        load: Math.round(((load + (loadavg()[0] ?? 0)) / 2) * 10) / 10,
        job: s.job,
        jobMs: Math.round(s.jobMs),
        maxWaitMs: Math.round(s.maxWaitMs * 10) / 10,
        p95WaitMs: Math.round(s.p95WaitMs * 10) / 10,
        detail: s.detail,
        slices: (s.slices ?? []).map((t) => ({
          ms: t.ms,
          steps: t.steps,
          commitMs: t.commitMs,
          commitPages: t.commitIo?.pageWrites ?? null,
          commitFlushes: t.commitIo?.flushes ?? null,
          stepsPages: t.stepsIo?.pageWrites ?? null,
        })),
      }));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const server = await serveStatic(root, port);
const rows: Row[] = [];
const out = values.out ? resolve(values.out) : null;
const previous: Row[] = out && existsSync(out) ? ((JSON.parse(readFileSync(out, 'utf8')) as { runs: Row[] }).runs ?? []) : [];
try {
  for (let r = 0; r < rounds; r++) {
    const order = variants.map((_, i) => variants[(i + r) % variants.length]!);
    for (const v of order) {
      log(`round ${r + 1}: ${v} (load ${(loadavg()[0] ?? 0).toFixed(1)})`);
      const got = await once(v, r + 1);
      for (const x of got) {
        const s0 = x.slices[0];
        log(`  ${x.job}: ${x.jobMs} ms, longest wait ${x.maxWaitMs} ms, p95 ${x.p95WaitMs}; slowest slice ${s0 ? `${s0.ms} ms, ${s0.steps} steps, COMMIT ${s0.commitMs} ms, ${s0.commitPages} pages, ${s0.commitFlushes} flushes` : '-'}; ${JSON.stringify(x.detail)}`);
      }
      rows.push(...got);
      if (out) {
        mkdirSync(resolve(out, '..'), { recursive: true });
        writeFileSync(out, `${JSON.stringify({ turns, variants, note: 'bench/speed/wal-ab.ts: one fresh Chromium profile per run, marks alternated', runs: [...previous, ...rows] }, null, 2)}\n`);
      }
    }
  }
} finally {
  server.close();
}
const all = [...previous, ...rows];
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const v = s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return Math.round(v * 100) / 100;
};
for (const job of ['import apply', 'reindex']) {
  for (const v of variants) {
    const xs = all.filter((x) => x.variant === v && x.job === job);
    console.log(`${job} ${v}: runs ${xs.length}, longest wait median ${median(xs.map((x) => x.maxWaitMs))} (${xs.map((x) => x.maxWaitMs).join(', ')}), p95 median ${median(xs.map((x) => x.p95WaitMs))}, slowest COMMIT median ${median(xs.map((x) => x.slices[0]?.commitMs ?? NaN))} ms`);
  }
}
