/**
 * docs/traceability.md lists every seed scenario and the test that covers it. This test rebuilds the
 * list from the test files and fails when the document is stale (regenerate with
 * `UPDATE_TRACEABILITY=1 npx vitest run tests/acceptance/traceability.test.ts`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const SOURCES = ['tests/acceptance', 'src/lib/domain/context', 'src/lib/domain/conversation', 'src/lib/domain/memory', 'tests/e2e'];
const SCENARIO = /\b(?:it|test)(?:\.each\([^)]*\))?\(\s*(['"`])((?:00[0-4]|SC-LTM-\d{3}|REQ-LTM-\d{3})[^'"`]*)\1/g;
const SEEDS: Record<string, string> = {
  '000': 'Seed 000 · Memory 能力规格 (chat memory: atomic memory, profile, session summaries, window, config)',
  '001': 'Seed 001 · AI Chat Memory System (working memory, long-term memory, retrieval, lifecycle)',
  '002': 'Seed 002 · 对话长期记忆 (unlimited turns, rolling summaries, symbol index, recall, cleanup)',
  '003': 'Seed 003 · Memory System (semantic rules, scope, degradation) — the parts the context engine uses',
  '004': 'Seed 004 · AI Memory sprint (six layers, stable prefix, context_rules, feedback, compaction)',
};

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.(test|spec)\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

function build(): string {
  const rows = new Map<string, { name: string; file: string }[]>();
  for (const file of SOURCES.flatMap(walk).sort()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(SCENARIO)) {
      const name = (m[2] as string).replace(/\$\{[^}]*\}/g, '…').trim();
      const seed = name.startsWith('SC-') || name.startsWith('REQ-') ? '002' : name.slice(0, 3);
      const list = rows.get(seed) ?? [];
      list.push({ name, file: relative(ROOT, join(ROOT, file)) });
      rows.set(seed, list);
    }
  }
  const out = [
    '# Traceability: seed scenarios → tests',
    '',
    'Generated from the test files by `tests/acceptance/traceability.test.ts` (which fails when this page is stale).',
    'Acceptance tests run against the real engine on sqlite-wasm (`npm run test:unit`); `tests/e2e` run in Chromium',
    '(`npm run test:e2e`). Issue-level behaviour without a seed scenario is covered by the unit tests beside the code.',
    '',
  ];
  for (const seed of Object.keys(SEEDS)) {
    const list = rows.get(seed) ?? [];
    out.push(`## ${SEEDS[seed]}`, '', '| scenario / requirement | test file |', '|---|---|');
    for (const r of list) out.push(`| ${r.name.replace(/\|/g, '\\|')} | \`${r.file}\` |`);
    if (list.length === 0) out.push('| (none) | |');
    out.push('');
  }
  return out.join('\n');
}

it('docs/traceability.md lists every seed scenario test', () => {
  const path = join(ROOT, 'docs', 'traceability.md');
  const expected = build();
  if (process.env.UPDATE_TRACEABILITY) writeFileSync(path, expected);
  expect(readFileSync(path, 'utf8')).toBe(expected);
  // Every seed with scenarios in its text has tests named after them.
  for (const seed of ['000', '001', '002', '004']) expect(expected).toMatch(new RegExp(`\\| ${seed === '002' ? 'SC-LTM-00' : seed}`));
});
