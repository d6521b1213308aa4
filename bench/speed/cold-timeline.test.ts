import { describe, expect, it } from 'vitest';
import { startupMarksInTrace, startupTimeline, type ProfileNode, type TimelineEvent } from './cold-timeline';

const W = { pid: 1, tid: 7 };
const mark = (stage: string, ts: number, on = W): TimelineEvent => ({ name: `engram:${stage}`, cat: 'blink.user_timing', ph: 'R', ts, ...on });
const frame = (id: number, functionName: string, parent?: number): ProfileNode => ({
  id,
  ...(parent !== undefined ? { parent } : {}),
  callFrame: { functionName, url: 'http://x/assets/open-engine.js', lineNumber: id },
});

describe('what the worker ran between its start-up marks (cold-ab.ts --trace)', () => {
  // Samples every 1 ms from 1,000,000 µs: 10 in evaluate › zodObject, 5 idle, then 20 in migrate › get
  // (folded: one callee carries all of migrate's time) and 4 in ensureSegmenterVersion.
  const nodes = [frame(1, '(root)'), frame(2, '(anon)', 1), frame(3, 'zodObject', 2), frame(4, '(idle)', 1), frame(5, 'migrate', 1), frame(6, 'get', 5), frame(7, 'ensureSegmenterVersion', 1)];
  const leaves = [...Array(10).fill(3), ...Array(5).fill(4), ...Array(20).fill(6), ...Array(4).fill(7)];
  const events: TimelineEvent[] = [
    mark('wasm', 1_000_000),
    mark('pool', 1_015_000),
    mark('engine', 1_039_000),
    mark('wasm', 2_000_000, { pid: 1, tid: 9 }), // another worker's
    { name: 'Profile', ph: 'P', ts: 999_000, ...W, id: '0x1', args: { data: { startTime: 999_000 } } },
    // The chunk comes from the profiler's thread; the deltas put the first sample at 1,000,000.
    { name: 'ProfileChunk', ph: 'P', ts: 1_050_000, pid: 1, tid: 99, id: '0x1', args: { data: { cpuProfile: { nodes, samples: leaves }, timeDeltas: [1000, ...Array(leaves.length).fill(1000)] } } },
    { name: 'v8.evaluateModule', ph: 'X', ts: 999_500, dur: 10_500, ...W },
    { name: 'MinorGC', ph: 'X', ts: 1_020_000, dur: 500, ...W }, // under 1 ms: not listed
  ];

  it('finds each marking thread and its marks in order', () => {
    const marks = startupMarksInTrace(events);
    expect([...marks.keys()]).toEqual(['1:7', '1:9']);
    expect(marks.get('1:7')).toEqual([
      ['wasm', 1_000_000],
      ['pool', 1_015_000],
      ['engine', 1_039_000],
    ]);
  });

  it('gives each window its wall, busy and idle ms, the tasks overlapping it and the folded call tree', () => {
    expect(startupTimeline(events, '1:7')).toEqual([
      'wasm → pool: 15.0 ms wall, sampled busy 10.0, idle 5.0',
      '  task +-0.5 ms: v8.evaluateModule  10.5 ms (10.0 inside)',
      '  10.0 (anon) open-engine.js:3 › zodObject open-engine.js:4',
      'pool → engine: 24.0 ms wall, sampled busy 24.0, idle 0.0',
      '  20.0 migrate open-engine.js:6 › get open-engine.js:7',
      '  4.0 ensureSegmenterVersion open-engine.js:8',
    ]);
  });
});
