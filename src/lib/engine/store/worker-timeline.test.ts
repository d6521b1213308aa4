import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import type { SqlDriver } from './driver';
import { runInSlices } from './slices';
import { BIG_COMMIT_PAGES, callCommitPages, entryWords, neitherSpans, noteTimeline, recordTimeline, TIMELINE_KEPT, timelineBetween, waitBreakdown, waitCause, type TimelineEntry } from './worker-timeline';

const call = (at: number, ms: number, method: string): TimelineEntry => ({ kind: 'call', at, ms, method });

describe('the stall probe’s wait breakdown (issue 16 item 5)', () => {
  it('splits a wait into the job’s transactions, other calls, neither, the probe and its answer’s way back', () => {
    // Probe sent at 1000, answered at 1200; the worker took it up at 1150 and answered it at 1152.
    const entries: TimelineEntry[] = [
      { kind: 'slice', at: 990, ms: 40 }, // 30 ms of it inside the wait
      { kind: 'checkpoint', at: 1040, ms: 20 },
      call(1070, 10, 'memory.create'),
      call(500, 5_000, 'maintenance.reindex'), // the job's own call: its slices are counted, not it
      call(1150, 2, 'session.list'),
      { kind: 'slice', at: 1160, ms: 35 }, // after the probe was answered: not what it sat behind
    ];
    expect(waitBreakdown({ at: 1000, waitMs: 200 }, entries, 'session.list')).toEqual({
      jobMs: 50,
      callsMs: 10,
      otherMs: 90,
      probeMs: 2,
      replyMs: 48,
      longestJobMs: 35,
      longestJobKind: 'slice',
    });
  });

  it('names a checkpoint between slices when it was the longest transaction the probe sat behind', () => {
    const entries: TimelineEntry[] = [{ kind: 'slice', at: 1000, ms: 20 }, { kind: 'checkpoint', at: 1025, ms: 120 }, call(1150, 1, 'session.list')];
    expect(waitBreakdown({ at: 1000, waitMs: 160 }, entries, 'session.list')).toMatchObject({ jobMs: 140, otherMs: 10, longestJobMs: 120, longestJobKind: 'checkpoint' });
  });

  it('is null when the probe’s own call is not in the timeline', () => {
    expect(waitBreakdown({ at: 1000, waitMs: 200 }, [{ kind: 'slice', at: 1000, ms: 150 }, call(900, 2, 'session.list')], 'session.list')).toBeNull();
  });
});

describe('when the worker ran neither a call nor a job transaction before taking the probe up (stall-trace.ts)', () => {
  it('gives the stretches no entry covers between the probe’s sending and its call, the job’s own call not covering them', () => {
    const entries: TimelineEntry[] = [
      call(500, 5_000, 'maintenance.reindex'), // the job's own call, running all along
      { kind: 'slice', at: 990, ms: 30 }, // covers 1000–1020
      { kind: 'checkpoint', at: 1005, ms: 5 }, // inside the slice: counted once
      call(1050, 10, 'memory.create'),
      call(1100, 2, 'session.list'), // the probe: taken up at 1100
      { kind: 'slice', at: 1110, ms: 40 }, // after: not before the probe
    ];
    expect(neitherSpans({ at: 1000, waitMs: 120 }, entries, 'session.list')).toEqual([
      { from: 1020, to: 1050 },
      { from: 1060, to: 1100 },
    ]);
    // Their sum is waitCause's "worker ran nothing noted".
    expect(waitCause({ at: 1000, waitMs: 120 }, entries, 'session.list')).toMatchObject({ cause: 'worker ran nothing noted (GC, thread not running, message in transit)', causeMs: 70 });
  });

  it('is the whole stretch up to the probe when nothing was noted, and null without the probe’s call', () => {
    expect(neitherSpans({ at: 1000, waitMs: 90 }, [call(1080, 1, 'session.list')], 'session.list')).toEqual([{ from: 1000, to: 1080 }]);
    expect(neitherSpans({ at: 1000, waitMs: 90 }, [{ kind: 'slice', at: 1000, ms: 50 }], 'session.list')).toBeNull();
  });
});

describe('why a probe waited (issue 19: the waits over 40 ms by cause)', () => {
  const io = (walPages: number, dbPages = 0) => ({ walPages, dbPages, flushes: walPages ? 1 : 0, flushMs: walPages ? 3 : 0 });
  const probe = (at: number) => call(at, 1, 'session.list');

  it('names a foreground read the probe sat behind, and the keeper checkpoint that ran just before it', () => {
    const entries: TimelineEntry[] = [
      { kind: 'keeper', method: 'soon', at: 995, ms: 12, frames: 70, io: io(0, 70) },
      { ...call(1008, 55, 'episode.query'), io: io(0) },
      probe(1064),
    ];
    expect(waitCause({ at: 1000, waitMs: 66 }, entries, 'session.list')).toEqual({ cause: 'episode.query read', causeMs: 55, before: ['keeper checkpoint (soon) 12 ms at 70 frames (0 WAL / 70 db pages, 0 flushes 0 ms)'] });
  });

  it('names a write by its COMMIT: many WAL pages, a checkpoint inside it, or the keeper’s checkpoint at once after it', () => {
    const one = (e: TimelineEntry, extra: TimelineEntry[] = []) => waitCause({ at: 1000, waitMs: 80 }, [e, ...extra, probe(1070)], 'session.list')?.cause;
    expect(one({ ...call(1000, 60, 'episode.record'), io: io(210) })).toBe('episode.record COMMIT of ≥ 100 WAL pages');
    expect(one({ ...call(1000, 60, 'episode.record'), io: io(12, 150) })).toBe('episode.record with database-file pages written (a checkpoint in its COMMIT)');
    expect(one({ ...call(1000, 60, 'episode.record'), io: io(12) })).toBe('episode.record write');
    expect(one({ ...call(1000, 60, 'episode.record'), io: io(12, 160) }, [{ kind: 'keeper', method: 'must', at: 1030, ms: 25, frames: 170 }])).toBe('episode.record + keeper checkpoint (must) after its COMMIT');
  });

  it('gives a task that ran between a call’s awaits its own time, not the call’s', () => {
    const entries: TimelineEntry[] = [call(1000, 60, 'episode.query'), { kind: 'slice', at: 1005, ms: 45, io: io(40) }, probe(1061)];
    expect(waitCause({ at: 1000, waitMs: 63 }, entries, 'session.list')).toMatchObject({ cause: 'clean-up slice', causeMs: 45 });
  });

  it('counts a slice’s writes and checkpoint that ran inside a query’s admission turn as the slice’s: the query stays a read', () => {
    const entries: TimelineEntry[] = [
      { ...call(1000, 70, 'episode.query'), io: io(30, 64) },
      { kind: 'slice', at: 1002, ms: 20, io: io(30, 64) },
      { kind: 'keeper', method: 'must', at: 1010, ms: 12, frames: 170, io: io(0, 64) },
      probe(1071),
    ];
    expect(waitCause({ at: 1000, waitMs: 73 }, entries, 'session.list')).toMatchObject({ cause: 'episode.query read', causeMs: 50 });
  });

  it('says the worker ran nothing it noted when the wait is a gap, and leaves out the job’s own call', () => {
    const entries: TimelineEntry[] = [call(0, 10_000, 'lifecycle.run'), { ...call(1000, 3, 'episode.query'), io: io(0) }, probe(1050)];
    expect(waitCause({ at: 1000, waitMs: 52 }, entries, 'session.list')).toMatchObject({ cause: 'worker ran nothing noted (GC, thread not running, message in transit)', causeMs: 47 });
  });

  it('counts the time the worker noted once when entries nest: the gap it noted nothing in is what is left', () => {
    const entries: TimelineEntry[] = [
      call(1000, 30, 'episode.query'),
      { kind: 'slice', at: 1005, ms: 20 },
      { kind: 'keeper', method: 'must', at: 1010, ms: 10 },
      probe(1090),
    ];
    expect(waitCause({ at: 1000, waitMs: 92 }, entries, 'session.list')).toMatchObject({ cause: 'worker ran nothing noted (GC, thread not running, message in transit)', causeMs: 60 });
  });

  it('is null when the probe’s own call is not in the timeline', () => {
    expect(waitCause({ at: 1000, waitMs: 50 }, [call(1000, 40, 'episode.query')], 'session.list')).toBeNull();
  });
});

describe('the worker timeline', () => {
  beforeEach(() => recordTimeline(true));
  afterEach(() => recordTimeline(false));

  it('is off by default and notes nothing — no slice, no call — until a benchmark turns it on', async () => {
    recordTimeline(false);
    const driver = { transaction: <T>(fn: () => T): T => fn() } as unknown as SqlDriver;
    const t0 = performance.timeOrigin + performance.now();
    let left = 3;
    await runInSlices({ driver, budgetMs: 0, step: () => --left > 0 });
    const { engine } = await createTestEngine();
    expectOk(await engine.call('session.list', { limit: 5 }));
    noteTimeline('slice', performance.now(), 1);
    expect(timelineBetween(t0 - 1, performance.timeOrigin + performance.now() + 1)).toEqual([]);
    recordTimeline(true);
    const t1 = performance.timeOrigin + performance.now();
    expectOk(await engine.call('session.list', { limit: 5 }));
    expect(timelineBetween(t1, performance.timeOrigin + performance.now()).map((e) => e.method)).toEqual(['session.list']);
    // Turned off again, what was kept is dropped.
    recordTimeline(false);
    expect(timelineBetween(t0 - 1, performance.timeOrigin + performance.now() + 1)).toEqual([]);
  });

  it('keeps the last TIMELINE_KEPT entries and returns those overlapping a window, oldest first', () => {
    const origin = performance.timeOrigin;
    for (let i = 0; i < TIMELINE_KEPT + 10; i++) noteTimeline('slice', i * 10, 5);
    expect(timelineBetween(origin, origin + 95)).toEqual([]); // the first ten were overwritten
    const got = timelineBetween(origin + 100, origin + 121);
    expect(got.map((e) => e.at - origin)).toEqual([100, 110, 120]);
    expect(timelineBetween(origin + 96, origin + 99)).toEqual([]); // 90–95 gone, 100 not begun
  });

  it('notes each slice of a sliced job and each call the engine answers, with its method only', async () => {
    let left = 5;
    const driver = { transaction: <T>(fn: () => T): T => fn() } as unknown as SqlDriver;
    const t0 = performance.timeOrigin + performance.now();
    const slices = await runInSlices({ driver, budgetMs: 0, step: () => --left > 0 });
    const { engine } = await createTestEngine();
    expectOk(await engine.call('session.list', { limit: 5 }));
    const got = timelineBetween(t0, performance.timeOrigin + performance.now());
    expect(got.filter((e) => e.kind === 'slice')).toHaveLength(slices);
    expect(slices).toBe(5);
    expect(got.filter((e) => e.kind === 'call').map((e) => Object.keys(e).sort())).toContainEqual(['at', 'kind', 'method', 'ms']);
    expect(got.some((e) => e.kind === 'call' && e.method === 'session.list')).toBe(true);
  });
});

describe('the WAL pages calls appended over a whole run (issue 19: no person’s COMMIT merging FTS5 segments)', () => {
  afterEach(() => recordTimeline(false));
  it('keeps per method the most pages one call appended and how many reached BIG_COMMIT_PAGES, beyond the ring, until turned off', () => {
    const io = (walPages: number) => ({ io: { walPages, dbPages: 0, flushes: 1, flushMs: 1 } });
    noteTimeline('call', 0, 1, 'episode.record', io(400));
    expect(callCommitPages()).toEqual({}); // not recording: nothing
    recordTimeline(true);
    noteTimeline('call', 0, 1, 'episode.record', io(12));
    noteTimeline('call', 1, 1, 'episode.record', io(BIG_COMMIT_PAGES + 216));
    for (let i = 0; i < TIMELINE_KEPT; i++) noteTimeline('call', 2 + i, 1, 'session.list', io(0));
    noteTimeline('call', 9e6, 1, 'episode.record', io(BIG_COMMIT_PAGES - 1));
    noteTimeline('keeper', 9e6, 5, 'merge', io(300)); // a task of its own: not a call's COMMIT
    expect(callCommitPages()).toEqual({ 'episode.record': { most: 316, big: 1, calls: 3 }, 'session.list': { most: 0, big: 0, calls: TIMELINE_KEPT } });
    recordTimeline(false);
    expect(callCommitPages()).toEqual({});
  });

  it('names a merge task in a few words, without frames', () => {
    expect(entryWords({ kind: 'keeper', method: 'merge', at: 0, ms: 3.21, io: { walPages: 9, dbPages: 0, flushes: 0, flushMs: 0 } })).toBe('FTS merge task 3.2 ms (9 WAL / 0 db pages, 0 flushes 0 ms)');
  });
});
