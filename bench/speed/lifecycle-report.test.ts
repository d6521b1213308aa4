import { describe, expect, it } from 'vitest';
import type { LifecycleLoadReport } from './lifecycle-load';
import { layoutLine, lifecycleResult, lifecycleSection } from './lifecycle-report';

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
