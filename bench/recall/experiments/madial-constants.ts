import { writeFileSync } from 'node:fs';
import { runMadial } from '../datasets/madial';
import { ablationOf } from '../ablation';
const passes = [
  { name: 'all techniques', config: {} },
  { name: 'grams64', config: { memoryGramsPerText: 64 } },
  { name: 'decay1', config: { dialogueDecay: 1 } },
  { name: 'decay3', config: { dialogueDecay: 3 } },
  { name: 'dturns3', config: { dialogueTurns: 3 } },
  { name: 'dturns10', config: { dialogueTurns: 10 } },
  { name: 'strength1', config: { strengthPower: 1 } },
  { name: 'strength025', config: { strengthPower: 0.25 } },
  { name: 'kw32', config: { memoryKeywords: 32 } },
];
const t0 = performance.now();
const run = await runMadial(`${process.env.BENCH_DATA_DIR ?? '../shared/bench'}/madial/madial-zh-dialogue-dev.jsonl`, `${process.env.BENCH_DATA_DIR ?? '../shared/bench'}/madial/madial-zh-memory.jsonl`, { passes, baselines: false });
const r = ablationOf(run, passes, performance.now() - t0);
writeFileSync('/tmp/r18exp/madial.json', JSON.stringify(r, null, 1));
for (const [name, m] of Object.entries(r.passes)) console.log(name.padEnd(16), ['recall@3', 'recall@5', 'recall@10'].map((k) => `${k}=${m[k]} A=${r.halves.a.passes[name]?.[k]} B=${r.halves.b.passes[name]?.[k]}`).join(' | '));
console.log('elapsed', ((performance.now() - t0) / 1000).toFixed(0), 's');
