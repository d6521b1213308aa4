/**
 * The speed harness page (built by bench/speed/vite.config.ts, driven by bench/speed/run.ts). It starts the app's
 * own DB worker (workers/db.worker.ts) on OPFS and talks to it exactly like the UI: Comlink + createCaller.
 * Everything timed here is a full round trip page → worker → engine → page, as the UI experiences it.
 */
import * as Comlink from 'comlink';
import { createCaller, type EngineCaller } from '../../src/lib/engine/client/caller';
import type { DbWorkerApi } from '../../src/lib/engine/host/worker-api';
import type { Input, Method, Output } from '../../src/lib/engine/protocol/contract';
import { generateMemories, generateQueries, generateTurns, type CorpusQuery } from '../lib/corpus';
import { runPeers, type PeerReport } from './peers';
import { episodeReference, episodeWorkload, type EpisodeReport } from './episodes';
import { timeTurns } from './turns';
import { backgroundStalls } from './stall';
import { vectorWorkload, type VectorsReport } from './vectors';
import { lifecycleLoad, progressText, type LifecycleLoadReport, type LifecycleLoadRun, type LoadLayout } from './lifecycle-load';
import { lifecycleLoadInWorker } from './load-worker';

export interface PrefillReport {
  bytes: number;
  /** The page size sqlite-wasm gives a new database here (the native prefill must match it). */
  pageSize: number;
  importMs: number;
  wallMs: number;
}

/** ?prefill=<url>: import that database file into the app's OPFS pool before the DB worker opens it. */
async function importPrefill(url: string): Promise<PrefillReport> {
  const t0 = performance.now();
  const helper = new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'bench-import' });
  const answer = await new Promise<{ ok: true; bytes: number; pageSize: number; importMs: number } | { ok: false; error: string }>((resolve) => {
    helper.onmessage = (e) => resolve(e.data);
    helper.postMessage({ url });
  });
  helper.terminate();
  if (!answer.ok) throw new Error(`prefill import failed: ${answer.error}`);
  return { bytes: answer.bytes, pageSize: answer.pageSize, importMs: answer.importMs, wallMs: performance.now() - t0 };
}

const prefillUrl = new URLSearchParams(location.search).get('prefill');
const prefill: Promise<PrefillReport | null> = prefillUrl ? importPrefill(prefillUrl) : Promise.resolve(null);

/** ?bare: the floor (bare.worker.ts) instead of the DB worker. */
const bare = new URLSearchParams(location.search).has('bare');

let engine: EngineCaller | null = null;
let remote: Comlink.Remote<DbWorkerApi> | null = null;
const started = bare ? new Promise<void>(() => {}) : prefill.then(async () => {
  const worker = new Worker(new URL('../../workers/db.worker.ts', import.meta.url), { type: 'module', name: 'engram-db' });
  remote = Comlink.wrap<DbWorkerApi>(worker);
  // As the app does (ui/app/connection.svelte.ts): one caller over the Comlink proxy; a closing page lets go of
  // the database lock at once, so the reloaded page can open it.
  const r = remote;
  engine = createCaller({ call: (req) => r.call(req) });
  addEventListener('pagehide', () => worker.terminate());
  void r.start({ persistent: true });
});

/** Each startup stage, in ms from this page's navigation start (the worker's absolute marks, startup-marks.ts). */
async function startupStages(): Promise<Record<string, number>> {
  const marks = bare ? (await bareRun).marks : ((await remote?.startup()) ?? {});
  return Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, (v as number) - performance.timeOrigin]));
}

const bareRun: Promise<{ marks: Record<string, number>; rows: number }> = bare
  ? new Promise((resolve, reject) => {
      const w = new Worker(new URL('./bare.worker.ts', import.meta.url), { type: 'module', name: 'bench-bare' });
      w.onmessage = (e) => (e.data.ok ? resolve(e.data) : reject(new Error(e.data.error)));
      addEventListener('pagehide', () => w.terminate());
    })
  : new Promise(() => {});

async function must<M extends Method>(method: M, input: Input<M>): Promise<Output<M>> {
  if (!engine) throw new Error('the DB worker has not started');
  const res = await engine.call(method, input);
  if (!res.ok) throw new Error(`${method}: ${res.error.code} ${res.error.message}`);
  return res.data;
}

async function timed<M extends Method>(method: M, input: Input<M>): Promise<{ ms: number; data: Output<M> }> {
  const t0 = performance.now();
  const data = await must(method, input);
  return { ms: performance.now() - t0, data };
}

const COLD_QUERY = 'parseConfig 登录超时';

/** Page load → first recall answered: performance.now() counts from the navigation start. */
const boot = (async () => {
  if (bare) {
    await bareRun;
    return { firstRecallMs: performance.now(), firstRecallCallMs: 0, storage: 'opfs' as const, prefill: null };
  }
  const imported = await prefill;
  await started;
  const { ms } = await timed('recall.search', { query: COLD_QUERY, limit: 5 });
  const firstRecallMs = performance.now();
  const status = await must('system.status', {});
  return { firstRecallMs, firstRecallCallMs: ms, storage: status.storage, prefill: imported };
})();

const setState = (text: string) => {
  const el = document.getElementById('state');
  if (el) el.textContent = text;
};

export interface FillReport {
  turns: number;
  sessions: number;
  /** The conversations the fill wrote to (the prefill's last one included), for the summary pass. */
  sessionIds: string[];
  /** Every message.append round trip, in order. */
  storeMs: number[];
  sessionCreateMs: number[];
  textBytes: number;
  wallMs: number;
}

const encoder = new TextEncoder();

/**
 * Appends corpus turns [from, to) one at a time, as the UI sends them, timing each round trip. `open` is the
 * session (corpus number → product id) that turn `from` continues, when the prefill ended mid-conversation.
 */
async function fillTurns(opts: { seed: number; from: number; to: number; open: { no: number; id: string } | null }): Promise<FillReport> {
  const t0 = performance.now();
  const storeMs: number[] = [];
  const sessionCreateMs: number[] = [];
  let textBytes = 0;
  let current = opts.open?.no ?? -1;
  let sessionId = opts.open?.id ?? '';
  let sessions = 0;
  const sessionIds = opts.open ? [opts.open.id] : [];
  let index = 0;
  for (const turn of generateTurns({ seed: opts.seed, count: opts.to })) {
    if (index++ < opts.from) continue;
    if (turn.session !== current) {
      const s = await timed('session.create', {});
      sessionCreateMs.push(s.ms);
      sessionId = s.data.id;
      sessionIds.push(sessionId);
      current = turn.session;
      sessions++;
    }
    const t = performance.now();
    await must('message.append', { sessionId, role: turn.role, content: turn.content });
    storeMs.push(performance.now() - t);
    textBytes += encoder.encode(turn.content).length;
    if (storeMs.length % 5000 === 0) {
      setState(`stored ${storeMs.length}`);
      console.log(`[bench] stored ${storeMs.length}/${opts.to - opts.from}`);
    }
  }
  return { turns: storeMs.length, sessions, sessionIds, storeMs, sessionCreateMs, textBytes, wallMs: performance.now() - t0 };
}

/**
 * The jobs worker's rolling-summary pass (summary.roll), one conversation at a time, as it follows the turns:
 * storing a turn never summarises, so this is the rest of 002 REQ-LTM-002's cost. Each round trip timed.
 */
async function rollSummaries(opts: { sessionIds: string[] }): Promise<{ ms: number[]; created: number }> {
  const ms: number[] = [];
  let created = 0;
  for (const sessionId of opts.sessionIds) {
    const { ms: t, data } = await timed('summary.roll', { sessionId });
    ms.push(t);
    created += data.created.length;
  }
  return { ms, created };
}

async function storeMemories(opts: { seed: number; count: number }): Promise<number[]> {
  const out: number[] = [];
  for (const m of generateMemories(opts)) out.push((await timed('memory.create', m)).ms);
  return out;
}

async function recallAll(opts: { queries: CorpusQuery[]; limit: number; rounds: number }): Promise<{ kind: string; ms: number; results: number }[]> {
  const out: { kind: string; ms: number; results: number }[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    for (const q of opts.queries) {
      const { ms, data } = await timed('recall.search', { query: q.text, limit: opts.limit });
      out.push({ kind: q.kind, ms, results: data.results.length });
    }
  }
  return out;
}

async function retrieveMemories(opts: { queries: CorpusQuery[]; topN: number }): Promise<number[]> {
  const out: number[] = [];
  for (const q of opts.queries) out.push((await timed('memory.retrieve', { query: q.text, topN: opts.topN })).ms);
  return out;
}

async function listMemories(opts: { count: number }): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < opts.count; i++) out.push((await timed('memory.list', { limit: 20, offset: (i * 20) % 200 })).ms);
  return out;
}

/** 002 "摘要生成（10轮）": summary.create over 10 turns of existing sessions. */
async function summarize(opts: { count: number }): Promise<number[]> {
  const { items } = await must('session.list', { limit: 200 });
  const long = items.filter((s) => s.turnCount >= 10).slice(0, opts.count);
  const out: number[] = [];
  for (const s of long) out.push((await timed('summary.create', { sessionId: s.id, fromTurn: 1, toTurn: 10 })).ms);
  return out;
}

function pageHeap(): number | null {
  const mem = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
  return mem ? mem.usedJSHeapSize : null;
}

const api = {
  boot: () => boot,
  sqliteMemory: async () => (await remote?.sqliteMemory()) ?? null,
  status: () => must('system.status', {}),
  sessionCount: async () => (await must('session.list', { limit: 1 })).total,
  fillTurns,
  rollSummaries,
  storeMemories,
  recallAll,
  retrieveMemories,
  listMemories,
  summarize,
  queries: (opts: { seed: number; perKind: number }) => generateQueries(opts),
  peers: (opts: { seed: number; count: number; queries: CorpusQuery[]; limit: number }): Promise<PeerReport[]> => runPeers(opts),
  /** Seed 003 at scale (issue 17): episode.record / episode.query / rules.list, and what recording costs typing. */
  episodes: (opts: { seed: number; count: number; queries: number; lists: number; rules: number; samples: number; retrieveQueries?: string[] }): Promise<EpisodeReport> => {
    if (!engine) throw new Error('the DB worker has not started');
    return episodeWorkload({ engine, ...opts, setState });
  },
  /** One engine call's answer as the page gets it (episode-query-cdp.ts: the size of what episode.query carries). */
  answer: (opts: { method: Method; input: unknown }): Promise<unknown> => must(opts.method, opts.input as never),
  /** The worker's timeline (store/worker-timeline.ts) on or off, and what it kept (episode-query-cdp.ts). */
  recordTimeline: async (on: boolean) => void (await remote?.recordTimeline(on)),
  timeline: async (opts: { from: number; to: number }) => (await remote?.timeline(opts.from, opts.to)) ?? [],
  /** Issue 17's reference at scale, last in a run: memory.retrieve over as many memories as episodes (episodes.ts). */
  episodeReference: (opts: { seed: number; memories: number; queries: number; retrieveQueries: string[] }) => {
    if (!engine) throw new Error('the DB worker has not started');
    return episodeReference({ engine, ...opts, setState });
  },
  /**
   * Seed 003 记忆读写指标达标 with the lifecycle clean-up in the middle (issue 19, lifecycle-load.ts). `layout`: the
   * load generator in a load worker of its own over its own port to the DB worker, this page running only the stall
   * probe (load-worker.ts, the default), or in this page beside the probe (`page`: the layout before).
   */
  lifecycleLoad: (opts: LifecycleLoadRun & { layout?: LoadLayout }): Promise<LifecycleLoadReport> => {
    if (!engine || !remote) throw new Error('the DB worker has not started');
    const running = engine;
    const db = remote;
    const { layout = 'load-worker', ...run } = opts;
    const timeline = async (from: number, to: number) => db.timeline(from, to);
    const progress = (n: number, of: number, cleaning: boolean) => {
      setState(progressText(n, of, cleaning));
      console.log(`[bench] ${progressText(n, of, cleaning)}`);
    };
    // The worker's timeline (off by default) on for the run: what each long wait sat behind (stall.ts's causes).
    return (async () => {
      await db.recordTimeline(true);
      try {
        if (layout === 'page') return { ...(await lifecycleLoad({ engine: running, ...run, progress, timeline })), layout, commitPages: await db.commitPages() };
        const worker = new Worker(new URL('./load.worker.ts', import.meta.url), { type: 'module', name: 'bench-load' });
        try {
          // Its port to the DB worker is handed over as the app hands the jobs worker its own (connection.svelte.ts).
          return { ...(await lifecycleLoadInWorker({ worker, connectDb: (port) => db.connectJobs(port), engine: running, timeline, progress, run })), layout, commitPages: await db.commitPages() };
        } finally {
          worker.terminate();
        }
      } finally {
        await db.recordTimeline(false);
      }
    })();
  },
  pageHeap,
  startupStages,
  turns: (opts: { turns: number }) => timeTurns({ engine: engine as EngineCaller, turns: opts.turns }),
  /** The worker's timeline (store/worker-timeline.ts: off by default) is on for the run, for the waits' breakdowns. */
  stalls: async (opts: { importUrl: string | null; exportChunks: number }) => {
    await remote?.recordTimeline(true);
    try {
      return await backgroundStalls({ engine: engine as EngineCaller, ...opts, timeline: async (from, to) => (await remote?.timeline(from, to)) ?? [] });
    } finally {
      await remote?.recordTimeline(false);
    }
  },
  /** The vectors mode (issue 18): a vector per turn, recall with and without the meaning lane, store with and without. */
  vectors: (opts: { seed: number; dims: number; queries: CorpusQuery[]; limit: number; rounds: number; storeTurns: number }): Promise<VectorsReport> => {
    if (!engine) throw new Error('the DB worker has not started');
    return vectorWorkload({ engine, ...opts, baseUrl: `${location.origin}/v1`, setState });
  },
};

export type BenchApi = typeof api;
(globalThis as unknown as { engramBench: BenchApi }).engramBench = api;
void boot.then((b) => setState(`ready: first recall at ${b.firstRecallMs.toFixed(0)} ms, storage ${b.storage}`));
