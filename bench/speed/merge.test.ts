import { describe, expect, it } from 'vitest';
import type { MachineInfo } from '../lib/machine';
import { mergeResults } from './merge';
import { checks, speedTables, type SpeedResult, type SpeedSize } from './report';
import { episodeFigures, speedSize } from './testing';

const machine = (commit: string, date: string): MachineInfo & { chromium: string } => ({
  date,
  commit,
  dirty: false,
  cpu: 'Test CPU',
  cores: 2,
  memoryGb: 8,
  os: 'linux',
  node: 'v20',
  chromium: '120',
});

function result(sizes: SpeedSize[], commit: string, date: string, notes: string[] = []): SpeedResult {
  return { machine: machine(commit, date), config: { sizes: sizes.map((s) => s.turns), seed: 42 }, sizes, checks: checks(sizes), notes, elapsed_ms: 1000 };
}

describe('--merge: one size measured alone joins an earlier run', () => {
  const earlier = () => {
    const k100 = speedSize(100_000, { recall: 40, store: 20 });
    k100.episodes = episodeFigures({ record: 1.2, query: 3, list: 1 });
    return result([speedSize(1000), speedSize(10_000), k100], 'aaa1111', '2026-11-20T10:00:00Z', ['sizes note']);
  };

  it('keeps the earlier sizes, adds the new one in order, and checks the 1M goals over both', () => {
    const m1 = speedSize(1_000_000, { recall: 50, store: 22 });
    m1.load = { min: 3, median: 4, max: 6, samples: 90 };
    const merged = mergeResults(earlier(), result([m1], 'bbb2222', '2026-11-25T23:00:00Z', ['sizes note', 'partial: the run was still going (sizes  done)']));
    expect(merged.sizes.map((s) => s.turns)).toEqual([1000, 10_000, 100_000, 1_000_000]);
    expect(merged.config.sizes).toEqual([1000, 10_000, 100_000, 1_000_000]);
    const c = Object.fromEntries(merged.checks.map((x) => [x.id, x]));
    expect(c['i16-recall-1m']).toMatchObject({ measured: 1.25, pass: true, at: '1,000,000 turns' });
    expect(c['i16-store-1m']).toMatchObject({ measured: 1.1, pass: true });
    // The episodes were recorded at the earlier run's largest size: still checked, not lost to the new largest.
    expect(c['003-record']).toMatchObject({ measured: 4, at: '10,000 episodes' });
    expect(merged.runs?.map((r) => [r.machine.commit, r.sizes])).toEqual([
      ['aaa1111', [1000, 10_000, 100_000]],
      ['bbb2222', [1_000_000]],
    ]);
    expect(merged.notes.filter((n) => n.startsWith('partial:'))).toEqual([]);
    expect(merged.notes.at(-1)).toMatch(/^merged results: sizes 1,000, 10,000, 100,000 from one run \(.*commit aaa1111.*\); sizes 1,000,000 from one run \(.*commit bbb2222/);
    expect(merged.elapsed_ms).toBe(2000);
    // Each size's load average is shown beside it (the earlier run's sizes had none: '–').
    expect(speedTables(merged, 'text')).toMatch(/load average while measured.*–.*–.*–.*3 \/ 4 \/ 6/);
    expect(speedTables(earlier(), 'text')).not.toContain('load average');
  });

  it('a size measured again replaces the old row, and merging twice keeps each run’s own sizes', () => {
    const first = mergeResults(earlier(), result([speedSize(1_000_000, { recall: 60 })], 'bbb2222', '2026-11-25T23:00:00Z'));
    const again = mergeResults(first, result([speedSize(100_000, { recall: 30 })], 'ccc3333', '2026-11-26T01:00:00Z'));
    expect(again.sizes.map((s) => [s.turns, s.recall_ms.all.p95])).toEqual([
      [1000, 5],
      [10_000, 5],
      [100_000, 30],
      [1_000_000, 60],
    ]);
    expect(again.runs?.map((r) => [r.machine.commit, r.sizes])).toEqual([
      ['aaa1111', [1000, 10_000]],
      ['bbb2222', [1_000_000]],
      ['ccc3333', [100_000]],
    ]);
  });

  it('a run that measured every size again is left as it is', () => {
    const now = result([speedSize(1000), speedSize(10_000), speedSize(100_000)], 'ddd4444', '2026-11-26T02:00:00Z');
    expect(mergeResults(earlier(), now)).toBe(now);
  });
});
