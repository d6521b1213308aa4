import { describe, expect, it } from 'vitest';
import type { LifecycleLoadReport } from './lifecycle-load';
import { causeTimes, layoutLine, lifecycleResult, lifecycleSection } from './lifecycle-report';

/** A small load report as lifecycleLoad answers it (no clean-up run), for what the result file and its section say. */
function load(layout?: LifecycleLoadReport['layout']): LifecycleLoadReport {
  const ms = { 'episode.record': [3, 4, 5], 'episode.query': [6, 7], 'rules.list': [1] };
  return {
    writes: 3, retrievals: 2, ms, duringCleanupMs: { 'episode.record': [], 'episode.query': [], 'rules.list': [] }, errors: {}, calls: 6,
    cleanup: { state: 'failed', error: 'not run' }, stall: null, baselineStall: null, baselineWrites: 0, foregroundDuring: [], cleanupAtWrite: 3, cleanupStartedAt: 0, wallMs: 10,
    ...(layout ? { layout } : {}),
  };
}
const meta: Parameters<typeof lifecycleResult>[1] = {
  machine: { date: '2026-11-27', commit: 'eb0d456', dirty: false, cpu: 'test', cores: 2, memoryGb: 4, os: 'test', node: 'v20', chromium: '1' },
  seed: 42, oldEpisodes: 0, notes: [], elapsedMs: 1,
};

describe('the lifecycle result says which load layout ran (issue 19: the probe with the load in its page or not)', () => {
  it('records the layout in the config and names it in a line of the section', () => {
    const inWorker = lifecycleResult(load('load-worker'), meta);
    expect(inWorker.config.load_layout).toBe('load-worker');
    expect(lifecycleSection(inWorker)).toContain(layoutLine('load-worker'));
    const inPage = lifecycleResult(load('page'), meta);
    expect(inPage.config.load_layout).toBe('page');
    expect(lifecycleSection(inPage)).toContain(layoutLine('page'));
    expect(layoutLine('page')).toMatch(/--load-in-page/);
    expect(layoutLine('load-worker')).not.toBe(layoutLine('page'));
  });

  it('an older result without one has no layout field and says so', () => {
    const older = lifecycleResult(load(), meta);
    expect(older.config).not.toHaveProperty('load_layout');
    expect(lifecycleSection(older)).toContain(layoutLine(undefined));
    expect(layoutLine(undefined)).toMatch(/not recorded/);
  });
});

describe('causeTimes: what each cause of a long wait itself ran (issue 19: is an episode.query wait the query or queueing?)', () => {
  const wait = (waitMs: number, cause: string, causeMs: number, before: string[] = []) => ({ at: 0, waitMs, cause: { cause, causeMs, before } });
  it('per cause over 40 ms: count, median and longest own time, and how many came right after a task', () => {
    const t = causeTimes([
      wait(45, 'episode.query read', 41),
      wait(60, 'episode.query read', 52, ['clean-up slice 6 ms (20 WAL / 0 db pages, 0 flushes 0 ms)']),
      wait(50, 'episode.query read', 44, ['episode.record 3 ms (10 WAL / 0 db pages, 0 flushes 0 ms)']),
      wait(70, 'keeper checkpoint (soon)', 30, ['FTS merge task 2 ms (3 WAL / 0 db pages, 0 flushes 0 ms)']),
      wait(39, 'episode.query read', 38),
      { at: 0, waitMs: 90, cause: null },
    ]);
    expect(t).toEqual({
      'episode.query read': { n: 3, p50: 44, max: 52, after_task: 1 },
      'keeper checkpoint (soon)': { n: 1, p50: 30, max: 30, after_task: 1 },
    });
    expect(causeTimes(undefined)).toEqual({});
  });
});

describe('the result keeps the WAL pages calls appended at most (issue 19)', () => {
  it('as commit_pages, and a line of the section names each method, biggest first', () => {
    const res = lifecycleResult({ ...load('load-worker'), commitPages: { 'session.list': { most: 0, big: 0, calls: 9 }, 'episode.record': { most: 316, big: 2, calls: 3 } } }, meta);
    expect(res.commit_pages?.['episode.record']).toEqual({ most: 316, big: 2, calls: 3 });
    expect(lifecycleSection(res).join('\n')).toContain('episode.record 316 (2 of 3 at ≥ 100); session.list 0 (0 of 9 at ≥ 100)');
    expect(lifecycleResult(load(), meta)).not.toHaveProperty('commit_pages');
  });
});
