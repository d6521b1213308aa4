/** The lifecycle benchmark's result file (bench/results/speed-lifecycle.json) and its section of latest.md (issue 19). */
import type { MachineInfo } from '../lib/machine';
import { round, summarize, type LatencySummary } from '../lib/stats';
import { SLOW_TRANSACTION_MS, type IoCounts, type SlowTransaction } from '../../src/lib/engine/store/io-counters';
import type { LifecycleLoadReport, LoadCall, LoadLayout } from './lifecycle-load';
import type { StallReport } from './stall';
import { BIG_COMMIT_PAGES, entryWords, type CommitPages } from '../../src/lib/engine/store/worker-timeline';

/** A slice's or a transaction's file I/O in a few words: writes (KiB, ms), flushes (ms), truncates. */
const ioText = (io: IoCounts) => `${io.writes} writes ${Math.round(io.writeBytes / 1024)} KiB ${io.writeMs} ms (pages: ${io.walPageWrites ?? '?'} WAL, ${io.dbPageWrites ?? '?'} database file), ${io.flushes} flushes ${io.flushMs} ms${io.truncates ? `, ${io.truncates} truncates ${io.truncateMs} ms` : ''}`;

/** 003 模块级可验收标准 and 非功能需求: p95 goals of each call (ms); a stall over 50 ms is felt (issue 16). */
export const LOAD_GOALS: Record<LoadCall, number> = { 'episode.record': 150, 'episode.query': 220, 'rules.list': 180 };
export const STALL_GOAL_MS = 50;
export const ERROR_RATE_GOAL = 0.01;

/** What a slow transaction was: a clean-up slice's, a checkpoint between the slices, or a foreground write. */
const kindOf = (t: SlowTransaction) => (t.checkpoint ? (t.slice ? 'checkpoint between slices' : 'WAL keeper checkpoint (a task of its own)') : t.slice ? 'clean-up slice' : 'foreground write');

/**
 * One of the longest probe waits and what it overlapped: the foreground calls, the slow slices (of each phase's few
 * slowest) and the slow transactions (≥ 20 ms: slices, checkpoints between them, foreground writes). `after_start_ms`:
 * when the probe was sent, after the clean-up's start.
 */
export interface WorstWait {
  wait_ms: number;
  after_start_ms?: number;
  foreground: { call: LoadCall; ms: number }[];
  slices: { phase: string; ms: number; begin_ms: number; steps: number; steps_ms: number; slowest_step_ms: number; commit_ms: number }[];
  transactions?: { kind: string; ms: number; wal_pages: number; db_pages: number; flushes: number; flush_ms: number }[];
  /** Why it waited, from the DB worker's timeline (worker-timeline.ts waitCause): what ran longest, and what ran just before that. */
  cause?: { what: string; ms: number; before: string[] } | null;
  /** The worker's timeline from 60 ms before the wait to its end: ms from the probe's sending, what ran, its file I/O. */
  worker?: string[];
  /** Each overlapping foreground call in the worker: how long it sat queued (its arrival → its start) and ran. */
  foreground_in_worker?: { call: LoadCall; queued_ms: number; run_ms: number }[];
}

/** Waits longer than this are counted by cause (issue 19). */
export const CAUSE_OVER_MS = 40;

/** How many waits over CAUSE_OVER_MS each cause made (stall.ts causes), most first. */
export function causeCounts(causes: StallReport['causes']): Record<string, number> {
  const n: Record<string, number> = {};
  for (const c of causes ?? []) if (c.waitMs > CAUSE_OVER_MS) n[c.cause?.cause ?? 'timeline not read (the ring had moved on)'] = (n[c.cause?.cause ?? 'timeline not read (the ring had moved on)'] ?? 0) + 1;
  return Object.fromEntries(Object.entries(n).sort((a, b) => b[1] - a[1]));
}

/**
 * How long each cause itself ran in the waits over CAUSE_OVER_MS (worker-timeline.ts waitCause's causeMs: a call's
 * own time, less the tasks that ran inside it between its awaits — a clean-up slice in a memory query's admission
 * turn is the slice's), and how many of those waits had a clean-up slice or a keeper task end just before the cause
 * (queued in front of it). Says whether an `episode.query read` wait is the query itself or queueing (issue 19).
 */
export interface CauseTime {
  n: number;
  p50: number;
  max: number;
  /** Of the n, those with a clean-up slice or keeper task ending just before the cause. */
  after_task: number;
}
export function causeTimes(causes: StallReport['causes']): Record<string, CauseTime> {
  const by = new Map<string, { ms: number[]; afterTask: number }>();
  for (const c of causes ?? []) {
    if (c.waitMs <= CAUSE_OVER_MS || !c.cause) continue;
    const e = by.get(c.cause.cause) ?? { ms: [], afterTask: 0 };
    e.ms.push(c.cause.causeMs);
    if (c.cause.before.some((b) => /^(clean-up slice|keeper checkpoint|FTS merge task|checkpoint between slices)/.test(b))) e.afterTask++;
    by.set(c.cause.cause, e);
  }
  const out: Record<string, CauseTime> = {};
  for (const [k, { ms, afterTask }] of [...by].sort((a, b) => b[1].ms.length - a[1].ms.length)) {
    const s = [...ms].sort((a, b) => a - b);
    out[k] = { n: s.length, p50: s[Math.floor((s.length - 1) / 2)] ?? 0, max: s.at(-1) ?? 0, after_task: afterTask };
  }
  return out;
}

function worstWaits(load: LifecycleLoadReport): WorstWait[] {
  const overlaps = (a: number, aMs: number, b: number, bMs: number) => a < b + bMs && b < a + aMs;
  const slices = load.cleanup.state === 'done' ? load.cleanup.phases.flatMap((p) => (p.slowSlices ?? []).map((s) => ({ phase: p.phase, ...s }))) : [];
  const slow = load.cleanup.state === 'done' ? (load.cleanup.slowTransactions ?? []) : [];
  return (load.stall?.worst ?? []).map((w) => ({
    wait_ms: r1(w.waitMs),
    ...(load.cleanupStartedAt ? { after_start_ms: Math.round(w.at - load.cleanupStartedAt) } : {}),
    foreground: load.foregroundDuring.filter((f) => overlaps(f.at, f.ms, w.at, w.waitMs)).map((f) => ({ call: f.call, ms: r1(f.ms) })),
    slices: slices
      .filter((s) => overlaps(s.at, s.ms, w.at, w.waitMs))
      .map((s) => ({ phase: s.phase, ms: s.ms, begin_ms: s.beginMs, steps: s.steps, steps_ms: s.stepsMs, slowest_step_ms: s.slowestStepMs, commit_ms: s.commitMs })),
    transactions: slow
      .filter((t) => overlaps(t.at, t.ms, w.at, w.waitMs))
      .map((t) => ({ kind: kindOf(t), ms: t.ms, wal_pages: t.io.walPageWrites, db_pages: t.io.dbPageWrites, flushes: t.io.flushes, flush_ms: t.io.flushMs })),
    ...(w.entries
      ? {
          cause: w.cause ? { what: w.cause.cause, ms: w.cause.causeMs, before: w.cause.before } : null,
          worker: w.entries.filter((e) => !(e.kind === 'call' && e.method === 'lifecycle.run')).map((e) => `${e.at - w.at >= 0 ? '+' : ''}${r1(e.at - w.at)} ms: ${entryWords(e)}`),
          foreground_in_worker: load.foregroundDuring
            .filter((f) => overlaps(f.at, f.ms, w.at, w.waitMs))
            .flatMap((f) => {
              const e = w.entries!.find((x) => x.kind === 'call' && x.method === f.call && x.at >= f.at - 1 && x.at <= f.at + f.ms);
              return e ? [{ call: f.call, queued_ms: r1(e.at - f.at), run_ms: r1(e.ms) }] : [];
            }),
        }
      : {}),
  }));
}

export interface LifecycleBenchResult {
  machine: MachineInfo & { chromium: string };
  /** load_layout: where the foreground load generator ran (lifecycle-load.ts LoadLayout); absent in older results (the page). */
  config: { seed: number; writes: number; retrievals: number; old_episodes: number; cleanup_at_write: number; load_layout?: LoadLayout };
  calls: Record<LoadCall, LatencySummary>;
  during_cleanup: Record<LoadCall, LatencySummary>;
  errors: Record<string, number>;
  error_rate: number;
  cleanup: LifecycleLoadReport['cleanup'];
  /** causes: the waits over CAUSE_OVER_MS counted by cause (absent in older results and where the timeline was not read). */
  stall: { job_ms: number; probes: number; max_wait_ms: number; p95_wait_ms: number; longest_foreground_call_ms: number; worst: WorstWait[]; causes?: Record<string, number>; cause_ms?: Record<string, CauseTime> } | null;
  /** The same probe over the writes just before the clean-up, without it (lifecycle-load.ts baselineStall); absent in older results. */
  baseline_stall?: { job_ms: number; probes: number; max_wait_ms: number; p95_wait_ms: number; writes: number; causes?: Record<string, number>; cause_ms?: Record<string, CauseTime> } | null;
  /** Per call method over the whole run: the most WAL pages one call appended, calls at ≥ BIG_COMMIT_PAGES; absent in older results. */
  commit_pages?: Record<string, CommitPages>;
  checks: { name: string; goal: string; value: string; ok: boolean }[];
  notes: string[];
  elapsed_ms: number;
}

const r1 = (x: number) => round(x, 1);
const summary = (xs: number[]): LatencySummary => {
  const s = summarize(xs);
  return { n: s.n, p50: r1(s.p50), p95: r1(s.p95), p99: r1(s.p99), mean: r1(s.mean), max: r1(s.max) };
};

export function lifecycleResult(load: LifecycleLoadReport, meta: { machine: MachineInfo & { chromium: string }; seed: number; oldEpisodes: number; notes: string[]; elapsedMs: number }): LifecycleBenchResult {
  const keys = Object.keys(LOAD_GOALS) as LoadCall[];
  const calls = Object.fromEntries(keys.map((k) => [k, summary(load.ms[k])])) as Record<LoadCall, LatencySummary>;
  const during = Object.fromEntries(keys.map((k) => [k, summary(load.duringCleanupMs[k])])) as Record<LoadCall, LatencySummary>;
  const errorCount = Object.values(load.errors).reduce((n, c) => n + c, 0);
  const errorRate = load.calls ? errorCount / load.calls : 1;
  const longestDuring = Math.max(0, ...keys.flatMap((k) => load.duringCleanupMs[k]));
  const stall = load.stall
    ? { job_ms: Math.round(load.stall.jobMs), probes: load.stall.probes, max_wait_ms: r1(load.stall.maxWaitMs), p95_wait_ms: r1(load.stall.p95WaitMs), longest_foreground_call_ms: r1(longestDuring), worst: worstWaits(load), ...(load.stall.causes ? { causes: causeCounts(load.stall.causes), cause_ms: causeTimes(load.stall.causes) } : {}) }
    : null;
  const base = load.baselineStall;
  const baselineStall = base ? { job_ms: Math.round(base.jobMs), probes: base.probes, max_wait_ms: r1(base.maxWaitMs), p95_wait_ms: r1(base.p95WaitMs), writes: load.baselineWrites, ...(base.causes ? { causes: causeCounts(base.causes), cause_ms: causeTimes(base.causes) } : {}) } : null;
  const checks = [
    ...keys.map((k) => ({ name: `${k} p95`, goal: `< ${LOAD_GOALS[k]} ms`, value: `${calls[k].p95} ms`, ok: calls[k].p95 < LOAD_GOALS[k] })),
    { name: 'error rate', goal: '< 1 %', value: `${(errorRate * 100).toFixed(2)} % (${errorCount} of ${load.calls})`, ok: errorRate < ERROR_RATE_GOAL },
    { name: 'clean-up done', goal: 'state done', value: load.cleanup.state, ok: load.cleanup.state === 'done' },
    { name: 'longest stall while cleaning (probe)', goal: `≤ ${STALL_GOAL_MS} ms`, value: `${stall?.max_wait_ms ?? '—'} ms`, ok: (stall?.max_wait_ms ?? Infinity) <= STALL_GOAL_MS },
  ];
  return {
    machine: meta.machine,
    config: { seed: meta.seed, writes: load.writes, retrievals: load.retrievals, old_episodes: meta.oldEpisodes, cleanup_at_write: load.cleanupAtWrite, ...(load.layout ? { load_layout: load.layout } : {}) },
    calls,
    during_cleanup: during,
    errors: load.errors,
    error_rate: errorRate,
    cleanup: load.cleanup,
    stall,
    baseline_stall: baselineStall,
    ...(load.commitPages ? { commit_pages: load.commitPages } : {}),
    checks,
    notes: meta.notes,
    elapsed_ms: meta.elapsedMs,
  };
}

/** Which layout ran, in words: the stall figures of the two are not the same measurement. */
export function layoutLine(layout: LoadLayout | undefined): string {
  if (layout === 'load-worker') return 'Load layout: the foreground load generator in a load worker of its own, over its own port to the DB worker; the page ran only the stall probe.';
  if (layout === 'page') return 'Load layout: the foreground load generator in the page beside the stall probe (--load-in-page): its main-thread work delays the probe\'s answers too.';
  return 'Load layout: not recorded (an older result: the load generator ran in the page beside the stall probe).';
}

/** The section of bench/results/latest.md. */
export function lifecycleSection(res: LifecycleBenchResult): string[] {
  const row = (k: LoadCall) => {
    const a = res.calls[k];
    const d = res.during_cleanup[k];
    return `| \`${k}\` | ${a.n} | ${a.p50} | ${a.p95} | < ${LOAD_GOALS[k]} | ${d.n} | ${d.p50} | ${d.p95} | ${d.max} |`;
  };
  const out = [
    `${res.config.writes.toLocaleString('en')} writes and ${res.config.retrievals.toLocaleString('en')} retrievals, the lifecycle pass started after write ${res.config.cleanup_at_write.toLocaleString('en')} over ${res.config.old_episodes.toLocaleString('en')} old episodes (100–500 days) plus the new ones · ${(res.elapsed_ms / 1000).toFixed(0)} s`,
    '',
    layoutLine(res.config.load_layout),
    '',
    '| call | n | p50 ms | p95 ms | 003 p95 goal | n while cleaning | p50 | p95 | max |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...(Object.keys(LOAD_GOALS) as LoadCall[]).map(row),
    '',
  ];
  if (res.cleanup.state === 'done') {
    out.push('| phase | scanned | faded | compressed | deleted | slices | longest slice ms | median slice ms | ms |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|');
    for (const p of res.cleanup.phases) out.push(`| ${p.phase} | ${p.scanned} | ${p.faded} | ${p.compressed} | ${p.deleted} | ${p.slices} | ${p.longestSliceMs} | ${p.medianSliceMs} | ${p.ms} |`);
    out.push('', 'Slowest slices (ms: BEGIN / steps (slowest step) / COMMIT):', '');
    for (const p of res.cleanup.phases) {
      out.push(`- ${p.phase}: ${(p.slowSlices ?? []).map((s) => `${s.ms} (${s.beginMs} / ${s.steps}× ${s.stepsMs} (${s.slowestStepMs}) / ${s.commitMs}${s.commitIo ? ` — commit ${ioText(s.commitIo)}; steps ${ioText(s.stepsIo!)}` : ''})`).join(', ')}`);
    }
    out.push('');
    const slow = res.cleanup.slowTransactions ?? [];
    if (slow.length) {
      out.push(`Write transactions of ${SLOW_TRANSACTION_MS} ms or more while it ran (the clean-up's slices, its checkpoints between them and the foreground's writes), the slowest 15 of ${slow.length}:`, '');
      for (const t of [...slow].sort((a, b) => b.ms - a.ms).slice(0, 15)) out.push(`- ${t.ms} ms ${kindOf(t)} — ${ioText(t.io)}`);
      const fg = slow.filter((t) => !t.slice && !t.checkpoint);
      const between = slow.filter((t) => t.checkpoint && t.slice).length;
      const kept = slow.filter((t) => t.checkpoint && !t.slice).length;
      const ckpt = (xs: typeof slow) => xs.filter((t) => !t.checkpoint && t.io.dbPageWrites > 0).length;
      out.push(
        '',
        `Of these, ${fg.length} foreground writes (${ckpt(fg)} with a checkpoint in the COMMIT: pages copied into the database file), ${slow.length - fg.length - between - kept} slices (${ckpt(slow) - ckpt(fg)} with a checkpoint in the COMMIT), ${between} checkpoints between slices (of ${res.cleanup.checkpoints ?? '?'} run) and ${kept} WAL keeper checkpoints.`,
      );
      out.push('');
    }
  }
  out.push('| check | goal | measured | |', '|---|---|---|---|', ...res.checks.map((c) => `| ${c.name} | ${c.goal} | ${c.value} | ${c.ok ? 'ok' : '**missed**'} |`), '');
  if (res.stall) out.push(`Stall probe (session.list every 5 ms) while the clean-up ran ${res.stall.job_ms} ms: ${res.stall.probes} probes, longest wait ${res.stall.max_wait_ms} ms, p95 ${res.stall.p95_wait_ms} ms; longest foreground call meanwhile ${res.stall.longest_foreground_call_ms} ms.`, '');
  if (res.baseline_stall) {
    const b = res.baseline_stall;
    out.push(`The same probe over the ${b.writes.toLocaleString('en')} writes before the clean-up, with the same foreground load and no clean-up (${b.job_ms} ms): ${b.probes} probes, longest wait ${b.max_wait_ms} ms, p95 ${b.p95_wait_ms} ms — what the foreground's own writes cost, beside the ${res.stall?.max_wait_ms ?? '—'} ms while cleaning.`, '');
  }
  const counts = (c: Record<string, number> | undefined) => Object.entries(c ?? {}).map(([k, n]) => `${n}× ${k}`).join('; ') || 'none';
  if (res.stall?.causes) out.push(`Waits over ${CAUSE_OVER_MS} ms while cleaning, by cause (the DB worker's timeline): ${counts(res.stall.causes)}.`, '');
  if (res.baseline_stall?.causes) out.push(`The same before the clean-up (baseline): ${counts(res.baseline_stall.causes)}.`, '');
  if (res.commit_pages) {
    const pages = Object.entries(res.commit_pages).sort((a, b) => b[1].most - a[1].most).map(([m, c]) => `${m} ${c.most} (${c.big} of ${c.calls} at ≥ ${BIG_COMMIT_PAGES})`);
    out.push(`WAL pages one call appended at most over the run, by method (a COMMIT of ≥ ${BIG_COMMIT_PAGES} is FTS5 merging in it): ${pages.join('; ')}.`, '');
  }
  const times = (c: Record<string, CauseTime> | undefined) => Object.entries(c ?? {}).map(([k, t]) => `${k} ${t.p50} / ${t.max} ms (${t.after_task} of ${t.n} right after a task)`).join('; ') || 'none';
  if (res.stall?.cause_ms) out.push(`What each cause itself ran, median / longest (its own time: tasks inside a call between its awaits are theirs), and how many came right after a clean-up slice or keeper task — while cleaning: ${times(res.stall.cause_ms)}.`, '');
  if (res.baseline_stall?.cause_ms) out.push(`Before the clean-up: ${times(res.baseline_stall.cause_ms)}.`, '');
  if (res.stall?.worst.length) {
    out.push('The longest waits and what they overlapped (foreground calls; slices among each phase\'s 5 slowest: ms = BEGIN + steps + COMMIT):', '');
    for (const w of res.stall.worst) {
      const fg = w.foreground.map((f) => `${f.call} ${f.ms}`).join(', ') || 'none';
      const sl = w.slices.map((s) => `${s.phase} ${s.ms} (begin ${s.begin_ms}, ${s.steps} steps ${s.steps_ms}, slowest step ${s.slowest_step_ms}, commit ${s.commit_ms})`).join('; ') || 'none of the slowest';
      const tx = (w.transactions ?? []).map((t) => `${t.kind} ${t.ms} (${t.wal_pages} WAL / ${t.db_pages} database pages, ${t.flushes} flushes ${t.flush_ms} ms)`).join('; ') || 'none';
      out.push(`- ${w.wait_ms} ms${w.after_start_ms === undefined ? '' : ` at +${(w.after_start_ms / 1000).toFixed(1)} s`} — foreground: ${fg} — slices: ${sl} — slow transactions: ${tx}`);
      if (w.cause) out.push(`  - cause: ${w.cause.what} (${w.cause.ms} ms)${w.cause.before.length ? `; just before it: ${w.cause.before.join('; ')}` : ''}`);
      for (const f of w.foreground_in_worker ?? []) out.push(`  - ${f.call}: queued ${f.queued_ms} ms, ran ${f.run_ms} ms in the worker`);
      for (const line of w.worker ?? []) out.push(`  - ${line}`);
    }
    out.push('');
  }
  if (res.cleanup.state === 'done') {
    const mb = (b: number) => (b / 2 ** 20).toFixed(1);
    out.push(`Database file: ${mb(res.cleanup.bytesBefore)} MB before the clean-up, ${mb(res.cleanup.bytesAfter)} MB after.${res.cleanup.walFramesMost === undefined ? '' : ` The WAL held at most ${res.cleanup.walFramesMost} frames from the open to the clean-up's end.`}`, '');
  }
  out.push(...res.notes.map((n) => `- ${n}`));
  return out;
}
