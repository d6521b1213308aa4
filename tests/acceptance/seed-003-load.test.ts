/**
 * Seed 003 「记忆读写指标达标」 (issue 19): the benchmark's own workload (bench/speed/lifecycle-load.ts — the same
 * function `npm run bench:speed -- --lifecycle` runs in Chromium at 10,000 writes + 5,000 retrievals) at a reduced
 * but real scale on the real engine (sqlite-wasm), with the lifecycle pass started halfway through over an old
 * project. The latency goals (p95 < 150 / 220 / 180 ms) are measured by the benchmark
 * (bench/results/speed-lifecycle.json), not asserted here; this asserts what must hold on any machine: no call
 * fails, every call is answered, the clean-up finishes and does its work, the writes and retrievals go on while
 * it runs, and it runs in many short transactions rather than one long one.
 */
import { describe, expect, it } from 'vitest';
import { lifecycleLoad } from '../../bench/speed/lifecycle-load';
import type { EngineCaller } from '../../src/lib/engine/client/caller';
import { SLICE_BUDGET_MS } from '../../src/lib/engine/store/slices';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { bulkEpisodes, count, DAY } from './lifecycle-helpers';

describe('seed 003 memory read/write load with a clean-up in the middle', () => {
  it('003 记忆读写指标达标: 400 writes and 200 retrievals with the lifecycle pass halfway — no errors, every call answered, the clean-up done in short slices while the calls go on', async () => {
    const t = await createTestEngine();
    const old = expectOk(await t.engine.call('project.create', { name: 'last year' }));
    // An old history for the clean-up: 200 episodes past the 365-day TTL, 400 past the 180-day one.
    bulkEpisodes(t, { projectId: old.id, n: 200, prefix: 'ancient-', endAgoMs: 400 * DAY, big: true });
    bulkEpisodes(t, { projectId: old.id, n: 400, prefix: 'old-', endAgoMs: 200 * DAY, big: true });
    // Each call crosses a message hop (a macrotask), as it does between the page and the DB worker: without one,
    // an in-process engine would answer every call in microtasks and the clean-up's slices could never interleave.
    const hop: EngineCaller = {
      call: async (method, input) => {
        await new Promise((r) => setTimeout(r, 0));
        return t.engine.call(method, input);
      },
    };

    const load = await lifecycleLoad({ engine: hop, seed: 42, writes: 400 });

    expect(load.errors).toEqual({});
    expect(load.writes).toBe(400);
    expect(load.retrievals).toBe(200);
    expect(load.ms['rules.list']).toHaveLength(40);
    expect(load.calls).toBe(400 + 200 + 40);
    expect(count(t, 'project_id != ?', [old.id])).toBe(400);
    // The clean-up finished and did its work: every old episode compressed (past the 180-day TTL), those past
    // the 365-day TTL (and any decayed below 0.1) deleted, the rest kept as compressed summaries.
    if (load.cleanup.state !== 'done') throw new Error(`clean-up: ${JSON.stringify(load.cleanup)}`);
    const phase = Object.fromEntries(load.cleanup.phases.map((p) => [p.phase, p]));
    expect(phase.decay!.scanned).toBeGreaterThanOrEqual(600);
    expect(phase.compress!.compressed).toBe(600);
    expect(phase.purge!.deleted).toBeGreaterThanOrEqual(200);
    expect(count(t, 'project_id = ?', [old.id])).toBe(600 - phase.purge!.deleted);
    expect(count(t, 'id LIKE ?', ['ancient-%'])).toBe(0);
    expect(count(t, 'project_id = ? AND compressed = 0', [old.id])).toBe(0);
    // Nothing the load wrote was touched: new episodes are neither compressed nor deleted.
    expect(count(t, 'project_id != ? AND compressed = 0', [old.id])).toBe(400);
    // The writes and retrievals went on while it ran …
    expect(load.duringCleanupMs['episode.record'].length).toBeGreaterThan(0);
    expect(load.duringCleanupMs['episode.query'].length).toBeGreaterThan(0);
    expect(load.stall?.probes).toBeGreaterThan(0);
    // The baseline: the same probe over the writes before the clean-up (all 200 here), ended before it started.
    expect(load.baselineWrites).toBe(200);
    expect(load.baselineStall?.probes).toBeGreaterThan(0);
    expect(load.baselineStall?.detail).toEqual({});
    // … because the compression ran in many transactions of about the slice budget, never one long one.
    expect(phase.compress!.slices).toBeGreaterThan(3);
    expect(phase.compress!.medianSliceMs).toBeLessThanOrEqual(SLICE_BUDGET_MS * 2.5);
    expect(phase.compress!.longestSliceMs).toBeGreaterThan(0);
  }, 120_000);
});
