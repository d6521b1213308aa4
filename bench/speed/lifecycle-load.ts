/**
 * Seed 003 「记忆读写指标达标」 under a clean-up (issue 19): `writes` episodes recorded one at a time with
 * `episode.record` (memory:episode:record) and, after every second write, one `episode.query` (memory:episode:query)
 * — 10,000 writes and 5,000 retrievals at full scale — plus a `rules.list` (memory:semantic:list) every tenth write.
 * Halfway through the writes, the lifecycle pass the jobs worker runs (`lifecycle.run` decay → compress → purge, the
 * same call lifecycle-job.ts makes) starts in the background while the writes and retrievals go on; the stall
 * probe of stall.ts (a `session.list` every 5 ms) times what a person would feel meanwhile.
 *
 * Every call is a full round trip through whatever `engine` is: the DB worker over Comlink in the speed harness —
 * from a load worker of its own over its own MessagePort (load-worker.ts, the default of `npm run bench:speed --
 * --lifecycle`) or from the page itself (`--load-in-page`) — or the engine itself in the acceptance test
 * (tests/acceptance/seed-003-load.test.ts) at a reduced scale. The stall probe runs wherever `probe` runs it (by
 * default beside the load, over the same `engine`). The old episodes the clean-up works on are put there by the
 * caller (a prefill written by the native engine, or rows in the test).
 */
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import type { Input, Method } from '../../src/lib/engine/protocol/contract';
import type { LifecycleRunResult } from '../../src/lib/engine/lifecycle/types';
import type { CommitPages } from '../../src/lib/engine/store/worker-timeline';
import { generateTurns } from '../lib/corpus';
import { createPrng } from '../lib/prng';
import { stallDuring, type ReadTimeline, type StallReport } from './stall';

const SCENES = ['dialogue', 'action', 'description', 'introspection', 'exposition', 'narration'] as const;

export type LoadCall = 'episode.record' | 'episode.query' | 'rules.list';

/**
 * Where the foreground load generator ran in the harness: in a worker of its own, talking to the DB worker over its
 * own MessagePort, the page running only the stall probe (`load-worker`); or in the page beside the probe (`page`,
 * `--load-in-page`), where the generator's own main-thread work (corpus text, results) is charged to the probe's waits.
 */
export type LoadLayout = 'load-worker' | 'page';

/**
 * Runs the stall probe (stall.ts's stallDuring) while `run` runs, and answers its report: the load's clean-up and
 * its baseline are timed through this, so the probe can run in another thread than the load (load-worker.ts).
 */
export type StallProbe = (job: string, run: () => Promise<Record<string, number>>) => Promise<StallReport>;

export interface LifecycleLoadReport {
  writes: number;
  retrievals: number;
  /** Every foreground round trip (ms), per call, in order. */
  ms: Record<LoadCall, number[]>;
  /** The same, only those that started while the clean-up ran. */
  duringCleanupMs: Record<LoadCall, number[]>;
  /** Calls that answered an error (code → count); any error counts against 003's < 1 %. */
  errors: Record<string, number>;
  calls: number;
  /** What the clean-up did, per phase (slices, the longest slice's transaction …). */
  cleanup: LifecycleRunResult | { state: 'failed'; error: string };
  /** The stall probe while the clean-up ran (stall.ts). */
  stall: StallReport | null;
  /**
   * The same probe over the `baselineWrites` writes just before the clean-up started: the same foreground load
   * (records, queries, rules.list) and no clean-up — what the foreground's own writes make a person wait, so the
   * share of the stall that the clean-up adds can be told apart. Null when there are no writes before it.
   */
  baselineStall: StallReport | null;
  /** How many writes the baseline probe ran over. */
  baselineWrites: number;
  /** Every foreground call that started or ended while the clean-up ran: when it was sent (ms since the epoch) and how long it took. */
  foregroundDuring: { call: LoadCall; at: number; ms: number }[];
  /** The write the clean-up started after. */
  cleanupAtWrite: number;
  /** When lifecycle.run was sent (ms since the epoch: timeOrigin + now()); 0 if it never ran. */
  cleanupStartedAt: number;
  wallMs: number;
  /** Where the load generator ran (set by the harness page, page.ts); absent where nothing set it (in process). */
  layout?: LoadLayout;
  /** Per call method, the most WAL pages one call appended over the run (DbWorkerApi.commitPages); set by the harness page. */
  commitPages?: Record<string, CommitPages>;
}

export interface LifecycleLoadOptions {
  engine: EngineCaller;
  seed: number;
  writes: number;
  /** Start the clean-up after this many writes (default: half). */
  cleanupAt?: number;
  /** Writes before the clean-up probed without it (default: min(1,500, cleanupAt) — about as long as the clean-up runs). */
  baselineWrites?: number;
  /** false: no clean-up at all, the baseline probe over every write (record-profile.ts profiles the foreground alone). */
  cleanup?: boolean;
  /** After every 1,000 writes (default: a `[bench]` line on the console). */
  progress?: (writes: number, of: number, cleaning: boolean) => void;
  /** The DB worker's timeline (store/worker-timeline.ts), for what each long wait sat behind; none: no causes. */
  timeline?: ReadTimeline;
  /** Where the stall probe runs (default: stallDuring beside the load, over `engine`, reading `timeline`). */
  probe?: StallProbe;
}

/** What a harness asks of one run (the rest of LifecycleLoadOptions is its wiring). */
export type LifecycleLoadRun = Pick<LifecycleLoadOptions, 'seed' | 'writes' | 'cleanupAt' | 'baselineWrites' | 'cleanup'>;

/** The load's progress as a `[bench]` line (lifecycle-run.ts shows those) and the page's state text. */
export const progressText = (writes: number, of: number, cleaning: boolean): string => `lifecycle load ${writes}/${of}${cleaning ? ' (clean-up running)' : ''}`;

export async function lifecycleLoad(opts: LifecycleLoadOptions): Promise<LifecycleLoadReport> {
  const t0 = performance.now();
  const { engine } = opts;
  const progress = opts.progress ?? ((n, of, cleaning) => console.log(`[bench] ${progressText(n, of, cleaning)}`));
  const probe: StallProbe = opts.probe ?? ((job, run) => stallDuring(engine, job, run, opts.timeline));
  const ms: Record<LoadCall, number[]> = { 'episode.record': [], 'episode.query': [], 'rules.list': [] };
  const during: Record<LoadCall, number[]> = { 'episode.record': [], 'episode.query': [], 'rules.list': [] };
  const errors: Record<string, number> = {};
  const foregroundDuring: LifecycleLoadReport['foregroundDuring'] = [];
  let calls = 0;
  let cleaning = false;
  const must = async <M extends Method>(m: M, input: Input<M>) => {
    const res = await engine.call(m, input);
    if (!res.ok) throw new Error(`${m}: ${res.error.code} ${res.error.message}`);
    return res.data;
  };
  /** A timed foreground call; an error is counted, never thrown (003 asks for the error rate). */
  const timed = async <M extends LoadCall>(m: M, input: Input<M>): Promise<void> => {
    const started = cleaning;
    const t = performance.now();
    const res = await engine.call(m, input);
    const took = performance.now() - t;
    calls++;
    ms[m].push(took);
    if (started || cleaning) {
      during[m].push(took);
      foregroundDuring.push({ call: m, at: performance.timeOrigin + t, ms: took });
    }
    if (!res.ok) errors[res.error.code] = (errors[res.error.code] ?? 0) + 1;
  };

  const r = createPrng(opts.seed + 19);
  const texts = [...generateTurns({ seed: opts.seed + 19, count: 2_000 })].map((t) => t.content);
  const projects = [await must('project.create', { name: 'load novel' }), await must('project.create', { name: 'load notes' })];
  const docs = [
    await must('document.create', { projectId: projects[0]!.id, title: 'chapter', content: texts.slice(0, 40).join('\n\n') }),
    await must('document.create', { projectId: projects[1]!.id, title: 'notes', content: texts.slice(40, 80).join('\n\n') }),
  ];
  for (let i = 0; i < 20; i++) {
    await must('rules.add', i % 2 ? { rule: `load rule ${i}: ${r.pick(texts).slice(0, 60)}` } : { rule: `项目规则 ${i}：${r.pick(texts).slice(0, 40)}`, scope: 'project', projectId: projects[0]!.id });
  }
  const episode = (i: number): Input<'episode.record'> => {
    const p = i % 2;
    const n = r.int(1, 3);
    return {
      skillId: r.chance(0.5) ? 'continue' : 'polish',
      projectId: projects[p]!.id,
      documentId: docs[p]!.id,
      input: r.pick(texts),
      candidates: Array.from({ length: n }, () => r.pick(texts)),
      selectedIndex: r.chance(0.15) ? -1 : r.int(0, n - 1),
      ...(r.chance(0.3) ? { finalText: r.pick(texts) } : {}),
    };
  };

  const cleanupAt = opts.cleanupAt ?? Math.floor(opts.writes / 2);
  const baselineFrom = cleanupAt - Math.min(opts.baselineWrites ?? 1_500, cleanupAt);
  let endBaseline: () => void = () => undefined;
  let baseline: Promise<StallReport> | null = null;
  const startBaseline = () => {
    const ended = new Promise<void>((r) => (endBaseline = r));
    baseline = probe('the same foreground load, no clean-up (baseline)', async () => (await ended, {}));
  };
  let cleanupDone: Promise<{ result: LifecycleRunResult | { state: 'failed'; error: string }; stall: StallReport }> | null = null;
  let cleanupStartedAt = 0;
  const startCleanup = () => {
    cleaning = true;
    cleanupStartedAt = performance.timeOrigin + performance.now();
    let result: LifecycleRunResult | { state: 'failed'; error: string } = { state: 'failed', error: 'not run' };
    cleanupDone = probe('lifecycle pass (decay → compress → purge) under load', async (): Promise<Record<string, number>> => {
      // The jobs worker's call (lifecycle-job.ts), all phases of a window that has come, no VACUUM (scheduled runs).
      const res = await engine.call('lifecycle.run', { phases: ['decay', 'compress', 'purge'], vacuum: false });
      result = res.ok ? res.data : { state: 'failed', error: `${res.error.code}: ${res.error.message}` };
      cleaning = false;
      if (!res.ok || res.data.state !== 'done') return {};
      const sum = (k: 'scanned' | 'faded' | 'compressed' | 'deleted' | 'slices') => res.data.state === 'done' ? res.data.phases.reduce((n, p) => n + p[k], 0) : 0;
      return { scanned: sum('scanned'), faded: sum('faded'), compressed: sum('compressed'), deleted: sum('deleted'), slices: sum('slices') };
    }).then((stall) => ({ result, stall }));
  };

  for (let i = 0; i < opts.writes; i++) {
    if (i === baselineFrom && baselineFrom < cleanupAt) startBaseline();
    if (i === cleanupAt) {
      endBaseline();
      await baseline;
      startCleanup();
    }
    await timed('episode.record', episode(i));
    if (i % 2 === 1) await timed('episode.query', { projectId: projects[i % 4 === 1 ? 0 : 1]!.id, sceneType: r.pick(SCENES), text: r.pick(texts) });
    if (i % 10 === 9) await timed('rules.list', i % 20 === 9 ? {} : { projectId: projects[0]!.id });
    if ((i + 1) % 1_000 === 0) progress(i + 1, opts.writes, cleaning);
  }
  endBaseline();
  const baselineStall = await (baseline as Promise<StallReport> | null);
  if (opts.cleanup === false) {
    return { writes: ms['episode.record'].length, retrievals: ms['episode.query'].length, ms, duringCleanupMs: during, errors, calls, cleanup: { state: 'failed', error: 'not run' }, stall: null, baselineStall, baselineWrites: cleanupAt - baselineFrom, foregroundDuring, cleanupAtWrite: cleanupAt, cleanupStartedAt, wallMs: performance.now() - t0 };
  }
  if (!cleanupDone) startCleanup();
  const done = await (cleanupDone as unknown as Promise<{ result: LifecycleRunResult | { state: 'failed'; error: string }; stall: StallReport }>);
  return {
    writes: ms['episode.record'].length,
    retrievals: ms['episode.query'].length,
    ms,
    duringCleanupMs: during,
    errors,
    calls,
    cleanup: done.result,
    stall: done.stall,
    baselineStall,
    baselineWrites: cleanupAt - baselineFrom,
    foregroundDuring,
    cleanupAtWrite: cleanupAt,
    cleanupStartedAt,
    wallMs: performance.now() - t0,
  };
}
