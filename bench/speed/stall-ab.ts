/**
 * The longest foreground wait during import apply and the reindex, two harness builds alternated (issue 16 item 5):
 * like wal-ab.ts (one fresh Chromium profile per run, the same native prefill and backup file, stall.ts's probe),
 * over several sizes, in lanes that run side by side (one lane per comma list, e.g. the 100k runs beside the 1k and
 * 10k ones, so a loaded machine gives each variant the same conditions). Within a lane each size runs `--rounds`
 * rounds, the variants' order rotating round by round. Per run: the longest and p95 wait of import apply and the
 * reindex, the idle baseline, the load average beside it, and the job's slowest slices.
 *
 *   for v in A B; do git checkout <commit of v> && npx vite build --config bench/speed/vite.config.ts \
 *     --outDir /tmp/stall-ab/$v --emptyOutDir; done
 *   BENCH_PORT=4192 npx tsx bench/speed/stall-ab.ts --root /tmp/stall-ab --variants A,B --lanes '100000;1000,10000' \
 *     --rounds 3 --out /tmp/stall-ab.json
 */
import type { Page } from '@playwright/test';
import { launchBenchChromium } from './chromium';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveStatic } from './serve';
import type { BenchApi } from './page';
import type { StallReport } from './stall';
import { ensureStallInputs } from './stall-inputs';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    variants: { type: 'string', default: 'A,B' },
    lanes: { type: 'string', default: '1000,10000' },
    rounds: { type: 'string', default: '3' },
    'import-memories': { type: 'string', default: '10000' },
    seed: { type: 'string', default: '42' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '4192' },
    out: { type: 'string' },
    /** Another stall-ab.ts run already serves `--root` on this port (two runs side by side). */
    'no-serve': { type: 'boolean', default: false },
  },
});
if (!values.root) throw new Error('--root <dir holding one harness build per variant> is required');
const root = resolve(values.root);
const variants = values.variants!.split(',');
const lanes = values.lanes!.split(';').map((l) => l.split(',').map(Number));
const rounds = Number(values.rounds);
const seed = Number(values.seed);
const port = Number(values.port);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const r1 = (x: number) => Math.round(x * 10) / 10;

type Bench = { engramBench: BenchApi };
async function call<K extends keyof BenchApi>(page: Page, name: K, arg?: Parameters<BenchApi[K]>[0]): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(([n, a]) => ((window as unknown as Bench).engramBench[n] as (x: unknown) => unknown)(a), [name, arg] as const) as Promise<
    Awaited<ReturnType<BenchApi[K]>>
  >;
}

const importFile = await ensureStallInputs(root, lanes.flat(), { seed, importMemories: Number(values['import-memories']), log });

interface Row {
  variant: string;
  turns: number;
  round: number;
  /** The 1-minute load average at the run's start and end. */
  load: [number, number];
  job: string;
  jobMs: number;
  startedAt: number;
  maxWaitMs: number;
  p95WaitMs: number;
  detail: Record<string, number>;
  slices: { ms: number; steps: number; commitMs: number; slowestStepMs: number; commitPages: number | null }[];
  /** The longest waits, with what each was made of where the build keeps the worker's timeline (stall.ts). */
  worst: StallReport['worst'];
}

async function once(variant: string, turns: number, round: number, lane: number): Promise<Row[]> {
  const profile = join(root, `profile-${process.pid}-${lane}-${variant}`);
  const context = await launchBenchChromium(profile);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => log(`  page error: ${e.message}`));
    page.setDefaultTimeout(0);
    await page.goto(`http://127.0.0.1:${port}/${variant}/index.html?prefill=${encodeURIComponent(`/prefill-${turns}.sqlite3`)}`);
    const boot = await call(page, 'boot');
    if (boot.storage !== 'opfs') throw new Error(`not on OPFS (${boot.storage})`);
    const load0 = r1(loadavg()[0] ?? 0);
    const stalls: StallReport[] = await call(page, 'stalls', { importUrl: `/${importFile}`, exportChunks: 0 });
    const load: [number, number] = [load0, r1(loadavg()[0] ?? 0)];
    return stalls
      .filter((s) => s.job === 'import apply' || s.job === 'reindex' || s.job.startsWith('idle'))
      .map((s) => ({
        variant,
        turns,
        round,
        load,
        job: s.job,
        jobMs: Math.round(s.jobMs),
        startedAt: s.startedAt,
        maxWaitMs: r1(s.maxWaitMs),
        p95WaitMs: r1(s.p95WaitMs),
        detail: s.detail,
        worst: s.worst,
        slices: (s.slices ?? []).map((t) => ({ ms: t.ms, steps: t.steps, commitMs: t.commitMs, slowestStepMs: t.slowestStepMs, commitPages: t.commitIo?.pageWrites ?? null })),
      }));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const server = !values['no-serve'] ? await serveStatic(root, port) : null;
const rows: Row[] = [];
const save = () => {
  if (values.out) writeFileSync(resolve(values.out), `${JSON.stringify({ variants, lanes, rounds, note: 'bench/speed/stall-ab.ts', runs: rows }, null, 2)}\n`);
};
try {
  await Promise.all(
    lanes.map(async (sizes, lane) => {
      for (const turns of sizes) {
        for (let r = 0; r < rounds; r++) {
          for (const v of variants.map((_, i) => variants[(i + r) % variants.length]!)) {
            const got = await once(v, turns, r + 1, lane);
            for (const x of got.filter((g) => !g.job.startsWith('idle')))
              log(`${turns} r${r + 1} ${v} ${x.job}: longest ${x.maxWaitMs} ms, p95 ${x.p95WaitMs}, job ${x.jobMs} ms, load ${x.load.join('→')} ${JSON.stringify(x.worst[0]?.breakdown ?? null)}`);
            rows.push(...got);
            save();
          }
        }
      }
    }),
  );
} finally {
  server?.close();
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : r1((s[m - 1]! + s[m]!) / 2);
};
for (const turns of new Set(lanes.flat()))
  for (const job of ['idle (baseline)', 'import apply', 'reindex'])
    for (const v of variants) {
      const xs = rows.filter((x) => x.turns === turns && x.variant === v && x.job === job);
      console.log(
        `${turns} ${job} ${v}: longest ${xs.map((x) => x.maxWaitMs).join(' / ')} (median ${median(xs.map((x) => x.maxWaitMs))}), p95 ${xs.map((x) => x.p95WaitMs).join(' / ')}, load ${xs.map((x) => x.load.join('→')).join(', ')}`,
      );
    }
