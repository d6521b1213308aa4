/**
 * `npm run bench:speed -- --lifecycle`: seed 003 记忆读写指标达标 in headless Chromium with the lifecycle clean-up in
 * the middle (issue 19). The old history is written by the native engine (lifecycle-prefill.ts) and imported into a
 * fresh profile's OPFS pool; the load (lifecycle-load.ts) then drives the app's own DB worker over Comlink — from a
 * load worker of its own (load-worker.ts), the page running only the stall probe, or with `loadInPage` from the page
 * beside the probe (the layout before; `--load-in-page`, for an A/B of the two). Writes
 * bench/results/speed-lifecycle.json (its own file: the main speed run keeps speed.json).
 */
import { launchBenchChromium } from './chromium';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { machineInfo, machineLine } from '../lib/machine';
import type { BenchApi } from './page';
import type { LoadLayout } from './lifecycle-load';
import { writeOldEpisodes } from './lifecycle-prefill';
import { lifecycleResult, lifecycleSection } from './lifecycle-report';
import { LIFECYCLE_PAGE_BUDGET, LIFECYCLE_SLICE_MS } from '../../src/lib/engine/lifecycle/service';

export async function runLifecycleBench(opts: { dist: string; cache: string; port: number; seed: number; writes: number; oldEpisodes: number; loadInPage?: boolean; out: string; log: (line: string) => void }): Promise<void> {
  const t0 = performance.now();
  const layout: LoadLayout = opts.loadInPage ? 'page' : 'load-worker';
  const { log } = opts;
  const prefillDir = join(opts.dist, 'prefill');
  mkdirSync(prefillDir, { recursive: true });
  const file = join(prefillDir, 'lifecycle-old.sqlite3');
  log(`writing ${opts.oldEpisodes.toLocaleString('en')} old episodes (native engine, a clock 100–500 days back)`);
  const old = await writeOldEpisodes(file, { seed: opts.seed, count: opts.oldEpisodes });
  log(`  ${(old.bytes / 2 ** 20).toFixed(1)} MB`);
  const profileDir = join(opts.cache, 'chromium-profile-lifecycle');
  const context = await launchBenchChromium(profileDir);
  try {
    const version = context.browser()?.version() ?? 'unknown';
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.text().startsWith('[bench]') || m.type() === 'error') log(`  page: ${m.text().slice(0, 200)}`);
    });
    page.on('pageerror', (e) => log(`  page error: ${e.message}`));
    page.setDefaultTimeout(0);
    await page.goto(`http://127.0.0.1:${opts.port}/?prefill=${encodeURIComponent('/prefill/lifecycle-old.sqlite3')}`);
    type Bench = { engramBench: BenchApi };
    const boot = await page.evaluate(() => (window as unknown as Bench).engramBench.boot());
    if (boot.storage !== 'opfs') throw new Error(`the DB worker is not on OPFS (storage: ${boot.storage})`);
    log(`  ${opts.writes.toLocaleString('en')} writes, ${Math.floor(opts.writes / 2).toLocaleString('en')} retrievals, the clean-up after write ${Math.floor(opts.writes / 2).toLocaleString('en')}; the load ${layout === 'page' ? 'in the page beside the probe' : 'in a load worker of its own'}`);
    const load = await page.evaluate((a) => (window as unknown as Bench).engramBench.lifecycleLoad(a), { seed: opts.seed, writes: opts.writes, layout });
    if (load.layout !== layout) throw new Error(`the page ran the load in the ${load.layout ?? '(unnamed)'} layout, not the ${layout} one asked for`);
    const result = lifecycleResult(load, {
      machine: { ...machineInfo(), chromium: version },
      seed: opts.seed,
      oldEpisodes: opts.oldEpisodes,
      elapsedMs: Math.round(performance.now() - t0),
      notes: [
        'a fresh Chromium profile (fresh OPFS); the old project (episodes recorded by the same engine on native SQLite with its clock set 500 → 100 days back) imported into the OPFS pool before the DB worker opened it',
        `foreground: episode.record one at a time (two projects, 1–3 corpus candidates), an episode.query (project + scene type + corpus text) after every second write, a rules.list after every tenth; each a full round trip ${layout === 'page' ? 'page → DB worker (Comlink) → engine → page' : 'load worker → DB worker (Comlink over the load worker\'s own MessagePort, handed over as the jobs worker\'s is) → engine → load worker'}, awaited one after another`,
        layout === 'page'
          ? 'layout: the load generator in the page beside the stall probe (--load-in-page): its main-thread work (corpus text, results) delays the probe\'s answers too'
          : 'layout: the load generator in a load worker of its own (load-worker.ts); the page runs only the stall probe and the report, and lifecycle.run is sent from the load worker (as the jobs worker sends it in the app)',
        `clean-up: lifecycle.run {decay, compress, purge} — the call the jobs worker's lifecycle job makes — sent without waiting after half the writes, while the writes and retrievals go on; each phase runs in ~${LIFECYCLE_SLICE_MS} ms transactions of at most ~${LIFECYCLE_PAGE_BUDGET} pages appended to the WAL (store/slices.ts, LIFECYCLE_SLICE_MS, LIFECYCLE_PAGE_BUDGET; a phase's first slices take 1, 2, 4 … steps until one shows what a step writes; the WAL checkpointed between the slices every ~64 pages, store/checkpoint-slices.ts, listed with the slow transactions when ≥ 20 ms), ends by giving free pages back 32 a step (lifecycle/vacuum.ts), and reports its slices with the 5 slowest split into BEGIN / steps / COMMIT`,
        'the longest waits are lined up with the foreground calls and the slow slices they overlapped (the page\'s and the worker\'s clocks: performance.timeOrigin + now())',
        'stall: stall.ts\'s probe (session.list every 5 ms) while the clean-up runs; "while cleaning" = foreground calls that started or ended while it ran',
        'no jobs worker in the harness page: nothing else runs a clean-up',
        'file I/O (store/io-counters.ts, counts and times at the OPFS sync access handle): a slow slice\'s COMMIT split into page writes and flushes; a COMMIT that copied pages into the database file checkpointed the WAL',
      ],
    });
    mkdirSync(dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`\n${machineLine(result.machine)}, Chromium ${version}\n\n${lifecycleSection(result).join('\n')}\n\n→ ${opts.out}`);
  } finally {
    await context.close();
    rmSync(profileDir, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
}
