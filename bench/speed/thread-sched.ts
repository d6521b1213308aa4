import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where a thread's wall time went, from the kernel (stall-trace.ts): a Chrome trace says how long a task or a GC
 * pause lasted and how much CPU the thread had in it (`tdur`), but not why the rest was lost — waiting for a CPU
 * (the machine's load) or asleep (blocked: a lock, a join on helper threads, I/O, or idle). Linux's
 * /proc/<pid>/task/<tid>/schedstat has both counters: ns on a CPU, ns runnable but waiting for one. Sampled every
 * few ms from this process beside the trace, on CLOCK_MONOTONIC (process.hrtime: the clock Chrome's trace `ts`
 * uses on Linux), a window splits exactly into running / waiting for a CPU / neither (asleep), to the sampling step.
 */
export interface SchedSample {
  /** CLOCK_MONOTONIC µs when read. */
  us: number;
  runNs: number;
  waitNs: number;
}

/** Parses one schedstat line: "<ns on cpu> <ns waiting on a runqueue> <timeslices>". */
export function parseSchedstat(line: string): { runNs: number; waitNs: number } {
  const [run, wait] = line.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(run) || !Number.isFinite(wait)) throw new Error(`schedstat: ${JSON.stringify(line)}`);
  return { runNs: run!, waitNs: wait! };
}

/** A counter's value at `us`, linear between the samples around it (clamped to the first / last). */
function at(samples: readonly SchedSample[], us: number, key: 'runNs' | 'waitNs'): number {
  if (us <= samples[0]!.us) return samples[0]![key];
  for (let i = 1; i < samples.length; i++) {
    const b = samples[i]!;
    if (us <= b.us) {
      const a = samples[i - 1]!;
      return a[key] + ((b[key] - a[key]) * (us - a.us)) / (b.us - a.us || 1);
    }
  }
  return samples.at(-1)![key];
}

/**
 * [fromUs, toUs] (monotonic µs) of one thread split: ms on a CPU, ms runnable but waiting for one, the rest asleep.
 * `coveredMs`: how much of the window the samples span (a window outside them says nothing). Null without samples.
 */
export function schedWindow(samples: readonly SchedSample[], fromUs: number, toUs: number): { runningMs: number; waitingForCpuMs: number; asleepMs: number; coveredMs: number } | null {
  if (samples.length < 2) return null;
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const runningMs = (at(samples, toUs, 'runNs') - at(samples, fromUs, 'runNs')) / 1e6;
  const waitingForCpuMs = (at(samples, toUs, 'waitNs') - at(samples, fromUs, 'waitNs')) / 1e6;
  const wallMs = (toUs - fromUs) / 1000;
  const coveredMs = Math.max(0, Math.min(toUs, samples.at(-1)!.us) - Math.max(fromUs, samples[0]!.us)) / 1000;
  return { runningMs: r1(runningMs), waitingForCpuMs: r1(waitingForCpuMs), asleepMs: r1(Math.max(0, wallMs - runningMs - waitingForCpuMs)), coveredMs: r1(coveredMs) };
}

const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Samples every thread of process `pid` whose name `pick` accepts, every `everyMs`, until stopped: the samples by
 * thread id, with each thread's name. Threads that come later are picked up at the next sample.
 */
export function sampleThreads(pid: number, pick: (comm: string) => boolean, everyMs = 5): { stop: () => Map<number, { comm: string; samples: SchedSample[] }> } {
  const threads = new Map<number, { comm: string; samples: SchedSample[] }>();
  const skipped = new Set<number>();
  const once = () => {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return; // the process is gone
    }
    for (const t of tids) {
      const tid = Number(t);
      if (skipped.has(tid)) continue;
      try {
        let th = threads.get(tid);
        if (!th) {
          const comm = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim();
          if (!pick(comm)) {
            skipped.add(tid);
            continue;
          }
          th = { comm, samples: [] };
          threads.set(tid, th);
        }
        const us = monoUs();
        th.samples.push({ us, ...parseSchedstat(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8')) });
      } catch {
        // the thread ended between the listing and the read
      }
    }
  };
  once();
  const timer = setInterval(once, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      once();
      return threads;
    },
  };
}
