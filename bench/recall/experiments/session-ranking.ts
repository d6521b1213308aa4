import { writeFileSync } from 'node:fs';
import { runLongMemEval } from '../datasets/longmemeval';
import { ablationOf } from '../ablation';
// Issue 18 (r18): session-ranking mechanisms measured on LongMemEval-S dev with both halves; none kept (06-retrieval.md).
// npx tsx bench/recall/experiments/session-ranking.ts → /tmp/r18exp/lme.json (per question, per pass)
const passes = [
  { name: 'depth2', config: { sessionTurnDepth: 2 } },
  { name: 'depth3', config: { sessionTurnDepth: 3 } },
  { name: 'depth5', config: { sessionTurnDepth: 5 } },
  { name: 'doc1', config: { sessionDocumentWeight: 1 } },
  { name: 'depth3boost', config: { sessionTurnDepth: 3, conversationBoost: 0.5 } },
  { name: 'all techniques', config: {} },
  { name: 'docPT1', config: { sessionDocumentWeight: 1, sessionDocumentPerTerm: true } },
  { name: 'docPT05', config: { sessionDocumentWeight: 0.5, sessionDocumentPerTerm: true } },
  { name: 'docPT2', config: { sessionDocumentWeight: 2, sessionDocumentPerTerm: true } },
  { name: 'docPT1d3', config: { sessionDocumentWeight: 1, sessionDocumentPerTerm: true, sessionTurnDepth: 3 } },
  { name: 'docPT1k10', config: { sessionDocumentWeight: 1, sessionDocumentPerTerm: true, sessionFusionK: 10 } },
];
const t0 = performance.now();
const run = await runLongMemEval(`${process.env.BENCH_DATA_DIR ?? '../shared/bench'}/longmemeval/longmemeval-s-dev.json`, { passes, baselines: false, limit: process.env.LIMIT ? Number(process.env.LIMIT) : undefined });
const r = ablationOf(run, passes, performance.now() - t0);
writeFileSync(process.env.OUT ?? '/tmp/r18exp/lme.json', JSON.stringify({ r, items: run.items.map((i) => ({ c: i.category, g: i.group, s: Object.fromEntries(Object.entries(i.systems).map(([k, v]) => [k, { s5: v.shown?.['session_recall_all@5'], t5: v.shown?.['turn_recall_all@5'], t10: v.shown?.['turn_recall_all@10'] }])) })) }, null, 1));
for (const [name, m] of Object.entries(r.passes)) console.log(name.padEnd(16), ['session_recall_all@5', 'turn_recall_all@5', 'turn_recall_all@10', 'session_recall_all@10'].map((k) => `${k}=${m[k]} A=${r.halves.a.passes[name]?.[k]} B=${r.halves.b.passes[name]?.[k]}`).join(' | '));
console.log('elapsed', ((performance.now() - t0) / 1000).toFixed(0), 's');
