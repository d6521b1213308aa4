import { type BrowserContext, type Page } from '@playwright/test';
import { launchBenchChromium } from './chromium';
import { rmSync } from 'node:fs';
import type { CorpusQuery } from '../lib/corpus';
import type { BenchApi, FillReport, PrefillReport } from './page';
import type { EpisodeReport } from './episodes';
import type { PeerReport } from './peers';
import type { StallReport } from './stall';
import type { TurnTimings } from './turns';
import type { OpenSession } from './native';
import { workerHeap, type WorkerHeap } from './worker-heap';
import type { SqliteMemory } from '../../src/lib/engine/store/sqlite-memory';

/** One size in a fresh browser profile (fresh OPFS), driven through the harness page's `engramBench` API. */
export interface BrowserSizeReport {
  chromium: string;
  prefill: PrefillReport | null;
  fill: FillReport;
  sessionsListed: number;
  dbBytes: number;
  memoryCreateMs: number[];
  recall: { kind: string; ms: number; results: number }[];
  memoryRetrieveMs: number[];
  memoryListMs: number[];
  summaryMs: number[];
  /** The rolling-summary pass over each conversation the UI fill wrote to (summary.roll). */
  roll: { ms: number[]; created: number };
  workerHeap: WorkerHeap | null;
  sqliteMemory: SqliteMemory | null;
  pageHeapBefore: number | null;
  peers: PeerReport[];
  coldStartMs: number[];
  /** Seed 003's calls at scale (issue 17), measured last so they do not change the figures above. */
  episodes: EpisodeReport | null;
  /** Each cold start's stages (ms from navigation start): the app's DB worker, and the bare sqlite-wasm floor. */
  coldStages: Record<string, number>[];
  bareStartMs: number[];
  bareStages: Record<string, number>[];
  turns: TurnTimings | null;
  stalls: StallReport[];
}

export interface BrowserSizeOptions {
  baseUrl: string;
  profileDir: string;
  size: number;
  seed: number;
  /** Turns [from, size) are appended through the UI path; [0, from) come from the prefill. */
  from: number;
  open: OpenSession | null;
  prefillUrl: string | null;
  queries: CorpusQuery[];
  memories: number;
  recallLimit: number;
  coldStarts: number;
  peers: boolean;
  /** Episodes to record for the 003 figures (0: none at this size). */
  episodes: number;
  /** Chat turns timed through turn.prepare / turn.finish against the scripted model. */
  turns: number;
  /** A backup file to import while the stall probe runs (null: no import stall figure). */
  importUrl: string | null;
  exportChunks: number;
  log: (line: string) => void;
}

type Bench = { engramBench: BenchApi };

async function call<K extends keyof BenchApi>(page: Page, name: K, arg?: Parameters<BenchApi[K]>[0]): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  return page.evaluate(
    ([n, a]) => ((window as unknown as Bench).engramBench[n] as (x: unknown) => unknown)(a),
    [name, arg] as const,
  ) as Promise<Awaited<ReturnType<BenchApi[K]>>>;
}

export async function runBrowserSize(opts: BrowserSizeOptions): Promise<BrowserSizeReport> {
  // gc() and precise performance.memory for the peers' heap figures.
  const context: BrowserContext = await launchBenchChromium(opts.profileDir, ['--js-flags=--expose-gc', '--enable-precise-memory-info']);
  try {
    const version = context.browser()?.version() ?? 'unknown';
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      const text = m.text();
      if (text.startsWith('[bench]') || m.type() === 'error') opts.log(`  page: ${text.slice(0, 200)}`);
    });
    page.on('pageerror', (e) => opts.log(`  page error: ${e.message}`));
    const first = opts.prefillUrl ? `${opts.baseUrl}?prefill=${encodeURIComponent(opts.prefillUrl)}` : opts.baseUrl;
    await page.goto(first);
    const boot = await call(page, 'boot');
    if (boot.storage !== 'opfs') throw new Error(`the DB worker is not on OPFS (storage: ${boot.storage})`);
    opts.log(`  appending turns ${opts.from}–${opts.size} through Comlink`);
    const fill = await call(page, 'fillTurns', { seed: opts.seed, from: opts.from, to: opts.size, open: opts.open });
    const roll = await call(page, 'rollSummaries', { sessionIds: fill.sessionIds });
    const status = await call(page, 'status');
    const sessionsListed = await call(page, 'sessionCount');
    opts.log(`  ${opts.memories} memories, ${opts.queries.length} recalls`);
    const memoryCreateMs = await call(page, 'storeMemories', { seed: opts.seed, count: opts.memories });
    const recall = await call(page, 'recallAll', { queries: opts.queries, limit: opts.recallLimit, rounds: 1 });
    const memoryRetrieveMs = await call(page, 'retrieveMemories', { queries: opts.queries, topN: 5 });
    const memoryListMs = await call(page, 'listMemories', { count: 100 });
    const pageHeapBefore = await call(page, 'pageHeap');
    let peers: PeerReport[] = [];
    if (opts.peers) {
      opts.log('  MiniSearch and Orama in the page');
      peers = await call(page, 'peers', { seed: opts.seed, count: opts.size, queries: opts.queries, limit: opts.recallLimit });
    }
    const coldStartMs: number[] = [];
    const coldStages: Record<string, number>[] = [];
    const bareStartMs: number[] = [];
    const bareStages: Record<string, number>[] = [];
    // Alternately, the app's DB worker and the bare floor, from the same navigation start on the same file.
    for (let i = 0; i < opts.coldStarts; i++) {
      await page.goto(opts.baseUrl);
      coldStartMs.push((await call(page, 'boot')).firstRecallMs);
      coldStages.push(await call(page, 'startupStages'));
      await page.goto(`${opts.baseUrl}?bare=1`);
      bareStartMs.push((await call(page, 'boot')).firstRecallMs);
      bareStages.push(await call(page, 'startupStages'));
    }
    // Memory: one more load, then the recall workload again; sqlite-wasm's figures come from the DB worker itself.
    await page.goto(opts.baseUrl);
    await call(page, 'boot');
    await call(page, 'recallAll', { queries: opts.queries, limit: opts.recallLimit, rounds: 1 });
    await call(page, 'retrieveMemories', { queries: opts.queries, topN: 5 });
    const sqlite = await call(page, 'sqliteMemory');
    const browserCdp = await context.browser()?.newBrowserCDPSession();
    const heap = browserCdp ? await workerHeap(browserCdp, 'db.worker').catch((e: Error) => (opts.log(`  worker heap: ${e.message}`), null)) : null;
    // Last: it writes summaries, which the recall figures above should not see.
    const summaryMs = await call(page, 'summarize', { count: 20 });
    let episodes: EpisodeReport | null = null;
    if (opts.episodes > 0) {
      opts.log(`  ${opts.episodes.toLocaleString('en')} episodes (episode.record), then episode.query and rules.list`);
      // memory.create / .retrieve / .list are timed again inside the phase, paired with the episode calls (episodes.ts).
      episodes = await call(page, 'episodes', { seed: opts.seed, count: opts.episodes, queries: 200, lists: 200, rules: 60, samples: 200, retrieveQueries: opts.queries.map((q) => q.text) });
    }
    let turns: TurnTimings | null = null;
    if (opts.turns > 0) {
      opts.log(`  ${opts.turns} chat turns against the scripted model`);
      turns = await call(page, 'turns', { turns: opts.turns });
    }
    opts.log('  background jobs with the stall probe');
    const stalls = await call(page, 'stalls', { importUrl: opts.importUrl, exportChunks: opts.exportChunks });
    if (episodes) {
      // Last, so no figure above sees the memories it adds (issue 17): the query pairing again, at as many memories as episodes.
      opts.log(`  reference: memory.retrieve over ${opts.episodes.toLocaleString('en')} memories, paired with episode.query`);
      episodes = { ...episodes, ...(await call(page, 'episodeReference', { seed: opts.seed, memories: opts.episodes, queries: 200, retrieveQueries: opts.queries.map((q) => q.text) })) };
    }
    return {
      chromium: version,
      prefill: boot.prefill,
      fill,
      sessionsListed,
      dbBytes: status.dbBytes,
      memoryCreateMs,
      recall,
      memoryRetrieveMs,
      memoryListMs,
      summaryMs,
      roll,
      workerHeap: heap,
      sqliteMemory: sqlite,
      pageHeapBefore,
      peers,
      coldStartMs,
      episodes,
      coldStages,
      bareStartMs,
      bareStages,
      turns,
      stalls,
    };
  } finally {
    await context.close();
    rmSync(opts.profileDir, { recursive: true, force: true });
  }
}
