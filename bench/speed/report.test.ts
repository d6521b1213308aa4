import { describe, expect, it } from 'vitest';
import { checks, episodeSection } from './report';
import type { EpisodeReport } from './episodes';
import { episodeFigures, lat, speedSize as size } from './testing';

const byId = (list: ReturnType<typeof checks>) => Object.fromEntries(list.map((c) => [c.id, c]));

describe('threshold checks', () => {
  it('reads size-specific thresholds at their size and the rest at the largest size', () => {
    const c = byId(checks([size(1000, { symbol: 150, store: 2 }), size(100_000, { recall: 14, store: 25 })]));
    expect(c['002-symbol-1000']).toMatchObject({ measured: 150, pass: true, at: '1,000 turns' });
    expect(c['goal-recall']).toMatchObject({ measured: 14, pass: true, at: '100,000 turns' });
    // store is read at the largest size: 25 ms fails both 002's 20 ms and the 3 ms goal
    expect(c['002-store']).toMatchObject({ measured: 25, pass: false });
    expect(c['goal-store']).toMatchObject({ measured: 25, pass: false });
  });

  it('says "not run" instead of inventing a figure for a size that was not measured', () => {
    const c = byId(checks([size(1000)]));
    expect(c['002-symbol-100']).toMatchObject({ measured: null, pass: null, at: '100 turns (not run)' });
    expect(c['goal-recall']?.pass).toBeNull();
  });

  it('splits storage into text and the rest: 1,100 B per turn with 200 B of text meets "≤ 1 KB beyond its text" only if the rest ≤ 1,024 B', () => {
    expect(byId(checks([size(1000, { bytes: 1100, text: 200 })]))['goal-overhead']).toMatchObject({ measured: 900, pass: true });
    expect(byId(checks([size(1000, { bytes: 1300, text: 200 })]))['goal-overhead']).toMatchObject({ measured: 1100, pass: false });
  });

  it('003 memory calls are read from the real episode.record / episode.query / rules.list, never from stand-ins', () => {
    const without = byId(checks([size(10_000)]));
    for (const id of ['003-record', '003-query', '003-list', 'goal-episode-record', 'goal-record-ratio']) expect(without[id]).toMatchObject({ measured: null, pass: null, at: 'episodes not run' });
    const s = size(10_000);
    s.episodes = episodeFigures({ record: 1.33, query: 12.5, list: 1 });
    const c = byId(checks([s]));
    expect(c['003-record']).toMatchObject({ measured: 4, pass: true, at: '10,000 episodes' });
    expect(c['goal-episode-query']).toMatchObject({ measured: 25, pass: false });
    expect(c['goal-query-ratio']).toMatchObject({ measured: 12.5, pass: false, unit: 'x' });
    expect(c['goal-record-ratio']).toMatchObject({ measured: 1.33, pass: true });
    expect(c['goal-typing']).toMatchObject({ measured: 0.2, pass: true });
  });

  it('a goal stated as "≤" is met at exactly the limit', () => {
    expect(byId(checks([size(100_000, { store: 3 })]))['goal-store']?.pass).toBe(true);
    expect(byId(checks([size(100_000, { store: 20 })]))['002-store']?.pass).toBe(false);
  });

  it('issue 16: the 1M goals are ratios to the same run\'s 100k figures, and a size not run gives no verdict', () => {
    const k100 = size(100_000, { recall: 10, store: 2 });
    const m1 = { ...size(1_000_000, { recall: 16, store: 2.6, bytes: 900, text: 200 }), worker_heap: { js_heap_used: 20 * 2 ** 20, js_heap_total: null, wasm_memory: 50 * 2 ** 20, sqlite_memory_used: null, sqlite_memory_highwater: null } };
    const c = byId(checks([k100, m1]));
    expect(c['i16-recall-1m']).toMatchObject({ measured: 1.6, pass: false, at: '1,000,000 turns' });
    expect(c['i16-store-1m']).toMatchObject({ measured: 1.3, pass: false });
    expect(c['i16-bytes-1m']).toMatchObject({ measured: 700, pass: true });
    expect(c['i16-memory-1m']).toMatchObject({ measured: 70 * 2 ** 20, pass: false });
    expect(byId(checks([k100]))['i16-recall-1m']).toBeUndefined();
    expect(c['i16-send-100k']).toMatchObject({ measured: null, pass: null });
  });

  it('issue 16: send overhead against recall, cold start against the bare floor, and the longest stall of any job', () => {
    const s = {
      ...size(100_000, { recall: 10 }),
      send_overhead: { send_to_request_ms: lat(18), reply_to_stored_ms: lat(4), calls_per_turn: 2, send_p95_over_recall_p95: 1.8 },
      cold_start_stages: { engram: {}, bare: {}, bare_runs: [200], bare_median: 200, engram_over_bare: 1.6 },
      cold_start_ms: { runs: [320], median: 320 },
      stalls: [
        { job: 'idle (baseline)', job_ms: 1000, probes: 100, max_wait_ms: 80, p95_wait_ms: 3, detail: {} },
        { job: 'import apply', job_ms: 5000, probes: 500, max_wait_ms: 42, p95_wait_ms: 20, detail: {} },
        { job: 'reindex', job_ms: 5000, probes: 500, max_wait_ms: 30, p95_wait_ms: 20, detail: {} },
      ],
    };
    const c = byId(checks([s]));
    expect(c['i16-send-ratio-100000']).toMatchObject({ measured: 1.8, pass: true });
    expect(c['i16-cold-ratio-100000']).toMatchObject({ measured: 1.6, pass: false });
    expect(c['i16-send-100k']).toMatchObject({ measured: 18, pass: true });
    expect(c['i16-cold-100k']).toMatchObject({ measured: 320, pass: false });
    // The idle baseline is not a job.
    expect(c['i16-stall-100000']).toMatchObject({ measured: 42, pass: true });
  });

  it('rules.list is set against memory.list timed alternately with it, not against the stand-in phase minutes earlier', () => {
    const ms = (v: number, n = 20) => Array.from({ length: n }, () => v);
    const e: EpisodeReport = {
      count: 10, recordMs: ms(4), queryMs: ms(10), rulesListMs: ms(3), memoryListPairedMs: ms(2), memoryCreatePairedMs: [], memoryRetrievePairedMs: [], rules: 60,
      eventLagAloneMs: [], eventLagAfterRecordMs: [], saveAloneMs: [], saveAfterRecordMs: [], wallMs: 1,
    };
    const memory = { create: lat(2), retrieve: lat(5), list: lat(6) };
    const paired = episodeSection(e, memory);
    expect(paired.over_memory_p95).toEqual({ record: 2, query: 2, list: 1.5 });
    expect(paired.memory_list_paired_ms?.p95).toBe(2);
    // A run without the alternating samples keeps the stand-in phase's memory.list.
    const phase = episodeSection({ ...e, memoryListPairedMs: [] }, memory);
    expect(phase.over_memory_p95.list).toBe(0.5);
    expect(phase.memory_list_paired_ms).toBeUndefined();
  });

  it('episode.record and episode.query are set against memory.create / memory.retrieve timed in the same phase when the run has them', () => {
    const ms = (v: number, n = 20) => Array.from({ length: n }, () => v);
    const e: EpisodeReport = {
      count: 10, recordMs: ms(4), queryMs: ms(10), rulesListMs: ms(3), memoryListPairedMs: ms(2), memoryCreatePairedMs: ms(1), memoryRetrievePairedMs: ms(8), rules: 60,
      eventLagAloneMs: [], eventLagAfterRecordMs: [], saveAloneMs: [], saveAfterRecordMs: [], wallMs: 1,
    };
    const memory = { create: lat(2), retrieve: lat(5), list: lat(6) };
    const paired = episodeSection(e, memory);
    expect(paired.over_memory_p95).toEqual({ record: 4, query: 1.25, list: 1.5 });
    expect(paired.memory_create_paired_ms?.p95).toBe(1);
    expect(paired.memory_retrieve_paired_ms?.p95).toBe(8);
    // Without them, the stand-in phase's figures.
    const phase = episodeSection({ ...e, memoryCreatePairedMs: [], memoryRetrievePairedMs: [] }, memory);
    expect(phase.over_memory_p95).toMatchObject({ record: 2, query: 2 });
    expect(phase.memory_create_paired_ms).toBeUndefined();
    expect(phase.memory_retrieve_paired_ms).toBeUndefined();
  });

  it('the reference at scale (memory.retrieve over as many memories as episodes) is an additional figure: the goal\'s ratio stays the paired one', () => {
    const ms = (v: number, n = 20) => Array.from({ length: n }, () => v);
    const e: EpisodeReport = {
      count: 10, recordMs: ms(4), queryMs: ms(10), rulesListMs: ms(3), memoryListPairedMs: ms(2), memoryCreatePairedMs: ms(1), memoryRetrievePairedMs: ms(5), rules: 60,
      memoriesAtScale: 10, queryAtScaleMs: ms(12), memoryRetrieveAtScaleMs: ms(8),
      eventLagAloneMs: [], eventLagAfterRecordMs: [], saveAloneMs: [], saveAfterRecordMs: [], wallMs: 1,
    };
    const memory = { create: lat(2), retrieve: lat(5), list: lat(6) };
    const f = episodeSection(e, memory);
    expect(f.over_memory_p95.query).toBe(2);
    expect(f.at_scale).toMatchObject({ memories: 10, query_over_retrieve_p95: 1.5 });
    expect(f.at_scale?.query_ms.p95).toBe(12);
    expect(f.at_scale?.memory_retrieve_ms.p95).toBe(8);
    // A run without it (or a result from before it was measured) has no such figure, rather than a made-up one.
    expect(episodeSection({ ...e, queryAtScaleMs: [], memoryRetrieveAtScaleMs: [] }, memory).at_scale).toBeUndefined();
    const { memoriesAtScale: _m, queryAtScaleMs: _q, memoryRetrieveAtScaleMs: _r, ...old } = e;
    expect(episodeSection(old, memory).at_scale).toBeUndefined();
  });
});
