import { describe, expect, it } from 'vitest';
import { parseSchedstat, schedWindow } from './thread-sched';
import { clockFromMark, gcKind, stretchesSum, threadWindow, type TraceEvent } from './trace-attribution';

const X = (name: string, ts: number, dur: number, tdur?: number, args?: Record<string, unknown>): TraceEvent => ({
  name,
  cat: 'x',
  ph: 'X',
  ts,
  dur,
  ...(tdur !== undefined ? { tdur } : {}),
  pid: 1,
  tid: 7,
  ...(args ? { args } : {}),
});

describe('a trace window on one thread (stall-trace.ts)', () => {
  // The DB worker's mark at trace 1,000,000 µs is epoch 5,000,000 ms: epoch ms = ts / 1000 + 4,999,000.
  const mark: TraceEvent = { name: 'stall-trace-db-start', cat: 'blink.user_timing', ph: 'R', ts: 1_000_000, pid: 1, tid: 7 };
  const clock = clockFromMark([mark, { ...mark, name: 'other', tid: 9 }], 'stall-trace-db-start', 5_000_000);

  it('takes the thread and its epoch offset from the mark it made', () => {
    expect(clock).toEqual({ pid: 1, tid: 7, offsetMs: 4_999_000 });
    expect(() => clockFromMark([mark, mark], 'stall-trace-db-start', 1)).toThrow(/2 user-timing events/);
  });

  it('splits a wait into GC (by kind, CPU, heap), other tasks, and time in no event', () => {
    // Window: epoch 5,000,100 ms for 100 ms = trace 1,100,000 … 1,200,000 µs.
    const events = [
      // A timer task from 1,090,000 to 1,150,000 with 6 ms CPU; inside it a major GC of 40 ms wall, 4 ms CPU.
      X('RunTask', 1_090_000, 60_000, 6_000),
      X('TimerFire', 1_090_100, 59_800, 5_900),
      X('MajorGC', 1_100_000, 40_000, 4_000, { usedHeapSizeBefore: 32 * 2 ** 20, usedHeapSizeAfter: 8 * 2 ** 20 }),
      X('V8.GC_MARK_COMPACTOR', 1_100_010, 39_900, 3_900),
      X('V8.GC_MC_CLEAR_JOIN_JOB', 1_101_000, 30_000, 100),
      // Nothing from 1,150,000 to 1,170,000; then a 10 ms message task with a scavenge of 2 ms.
      X('RunTask', 1_170_000, 10_000, 10_000),
      X('MinorGC', 1_172_000, 2_000, 2_000),
      // Nothing from 1,180,000 to the window's end.
    ];
    const w = threadWindow(events, clock, 5_000_100, 100);
    expect(w.busyMs).toBe(60);
    expect(w.nothingMs).toBe(40);
    expect(w.gaps).toEqual([
      [50, 20],
      [80, 20],
    ]);
    // CPU: the first task's 6 ms prorated to its 50 of 60 ms inside, plus the second's 10.
    expect(w.cpuMs).toBe(15);
    expect(w.gcMs).toBe(42);
    expect(w.gc[0]).toEqual({
      name: 'MajorGC',
      kind: 'mark-compact atomic pause',
      atMs: 0,
      ms: 40,
      inWindowMs: 40,
      cpuMs: 4,
      heapBeforeMb: 32,
      heapAfterMb: 8,
      phases: ['V8.GC_MARK_COMPACTOR 39.9 ms', 'V8.GC_MC_CLEAR_JOIN_JOB 30 ms'],
    });
    expect(w.gc[1]).toMatchObject({ name: 'MinorGC', kind: 'scavenge', inWindowMs: 2 });
    expect(w.tasks.map((t) => [t.name, t.atMs, t.inWindowMs, t.cpuMs])).toEqual([
      ['RunTask', -10, 50, 6],
      ['RunTask', 70, 10, 10],
    ]);
    expect(w.tasks[0]!.inside[0]).toBe('TimerFire 59.8 ms');
    // Two stretches summed: the GC is counted as GC, the rest of the busy time as other work.
    // The second: 10 ms of nothing, then 5 ms of the timer task (0.5 ms of its CPU).
    expect(stretchesSum([w, threadWindow(events, clock, 5_000_080, 15)])).toEqual({ ms: 115, gcMs: 42, otherBusyMs: 23, nothingMs: 50, cpuMs: 15.5 });
  });

  it('says CPU is unknown when a top-level event has no thread time, and names GC kinds', () => {
    expect(threadWindow([X('RunTask', 1_100_000, 10_000)], clock, 5_000_100, 20).cpuMs).toBeNull();
    expect(gcKind('V8.GCScavenger')).toBe('scavenge');
    expect(gcKind('V8.GCFinalizeMC')).toBe('mark-compact finalize');
    expect(gcKind('V8.GCIncrementalMarking')).toBe('incremental marking step');
    expect(gcKind('RunTask')).toBeNull();
  });
});

describe('a thread’s kernel split of a window (thread-sched.ts)', () => {
  it('parses schedstat and splits a window into running, waiting for a CPU and asleep, linear between samples', () => {
    expect(parseSchedstat('114097283 171023666 278\n')).toEqual({ runNs: 114097283, waitNs: 171023666 });
    expect(() => parseSchedstat('')).toThrow(/schedstat/);
    // Samples 10 ms apart: from 0 to 20 ms the thread ran 4 ms and waited 12 ms for a CPU (the rest asleep).
    const samples = [
      { us: 0, runNs: 0, waitNs: 0 },
      { us: 10_000, runNs: 2e6, waitNs: 8e6 },
      { us: 20_000, runNs: 4e6, waitNs: 12e6 },
    ];
    expect(schedWindow(samples, 0, 20_000)).toEqual({ runningMs: 4, waitingForCpuMs: 12, asleepMs: 4, coveredMs: 20 });
    // Half-way between samples: half the counters' growth.
    expect(schedWindow(samples, 5_000, 15_000)).toEqual({ runningMs: 2, waitingForCpuMs: 6, asleepMs: 2, coveredMs: 10 });
    expect(schedWindow(samples.slice(0, 1), 0, 10)).toBeNull();
  });
});
