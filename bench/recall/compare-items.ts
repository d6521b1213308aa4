/**
 * npx tsx bench/recall/compare-items.ts <before.json> <after.json> [--metric turn_recall_all@5]
 *
 * Which questions a change won or lost: two `--per-item` files of the same data (two commits, or two configs) compared
 * row by row. The metric defaults to the data set's headline (LongMemEval turn_recall_all@5, LoCoMo and MADial recall@5).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { changedItems, type ItemRow } from './output';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { metric: { type: 'string' } } });
if (positionals.length !== 2) {
  console.error('usage: compare-items.ts <before.json> <after.json> [--metric <key>]');
  process.exit(2);
}
const [before, after] = positionals.map((f) => JSON.parse(readFileSync(f as string, 'utf8')) as ItemRow[]);
const keys = Object.keys(before?.[0]?.scores ?? {});
const metric = values.metric ?? (keys.includes('turn_recall_all@5') ? 'turn_recall_all@5' : 'recall@5');
const changed = changedItems(before ?? [], after ?? [], metric);
for (const c of changed) console.log(`${c.after > c.before ? 'won ' : 'lost'} #${c.i} ${c.group} [${c.category}] ${metric} ${c.before} → ${c.after}`);
const sum = (rows: readonly ItemRow[]) => rows.reduce((s, r) => s + (r.scores[metric] ?? 0), 0) / (rows.length || 1);
console.log(`${changed.length} of ${before?.length ?? 0} changed; ${metric} ${sum(before ?? []).toFixed(3)} → ${sum(after ?? []).toFixed(3)}`);
