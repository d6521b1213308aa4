/**
 * `npm run bench:speed -- --sizes 1000000 --merge`: one size measured on its own (a million turns takes most of an
 * hour) joins the sizes an earlier run measured, in the same results file. The new run's sizes replace the old
 * run's at the same size; the goals are checked again over all of them; `runs` says which run measured which
 * sizes (machine, commit, date), and a note says that ratios across sizes of different runs compare two runs.
 */
import { machineLine } from '../lib/machine';
import { checks, type SpeedResult } from './report';

type Run = NonNullable<SpeedResult['runs']>[number];

const runsOf = (r: SpeedResult): Run[] => r.runs ?? [{ sizes: r.sizes.map((s) => s.turns), machine: r.machine, elapsed_ms: r.elapsed_ms }];

export function mergeResults(previous: SpeedResult, current: SpeedResult): SpeedResult {
  const fresh = new Set(current.sizes.map((s) => s.turns));
  const kept = previous.sizes.filter((s) => !fresh.has(s.turns));
  if (kept.length === 0) return current;
  const sizes = [...kept, ...current.sizes].sort((a, b) => a.turns - b.turns);
  const keptSizes = new Set(kept.map((s) => s.turns));
  const runs = [
    ...runsOf(previous)
      .map((r) => ({ ...r, sizes: r.sizes.filter((n) => keptSizes.has(n)) }))
      .filter((r) => r.sizes.length > 0),
    ...runsOf(current),
  ];
  const label = (ns: readonly number[]) => ns.map((n) => n.toLocaleString('en')).join(', ');
  const merged = `merged results: ${runs.map((r) => `sizes ${label(r.sizes)} from one run (${machineLine(r.machine)})`).join('; ')}. Ratios between sizes of different runs (recall or store at 1M ÷ at 100k) compare two runs at different machine loads (see each size's load average)`;
  return {
    machine: current.machine,
    config: { ...previous.config, ...current.config, sizes: sizes.map((s) => s.turns) },
    sizes,
    checks: checks(sizes),
    notes: [...current.notes.filter((n) => !n.startsWith('merged results:') && !n.startsWith('partial:')), merged],
    elapsed_ms: previous.elapsed_ms + current.elapsed_ms,
    runs,
  };
}
