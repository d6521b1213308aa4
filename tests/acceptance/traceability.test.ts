/**
 * docs/traceability.md maps every scenario of seeds 000, 001, 002 and 004 to the tests named after it
 * (STYLE: "one acceptance test per seed scenario, named after it"). This test rebuilds the page from the
 * test files and fails when a required scenario has no test, or when the page is stale (regenerate with
 * `UPDATE_TRACEABILITY=1 npx vitest run tests/acceptance/traceability.test.ts`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLiteral, testNames } from './traceability-scan';

const ROOT = join(__dirname, '..', '..');
const SOURCES = ['tests/acceptance', 'tests/e2e', 'src/lib'];

interface Seed {
  title: string;
  /** Every scenario of the seed, as the seed names it; a test covers one when its name starts with `<prefix><scenario>`. */
  scenarios: readonly string[];
  prefix: (scenario: string) => string;
}

/** The scenarios of each seed ("#### Scenario:" / "### SC-…" headings), word for word. */
const SEEDS: Record<string, Seed> = {
  '000': {
    title: 'Seed 000 · Memory 能力规格 (chat memory: atomic memory, profile, session summaries, window, config)',
    scenarios: ['被动 RAG 检索原子记忆', '原子记忆异步写入', '加载用户画像', '更新用户画像', '注入近期会话摘要', '新会话首条触发摘要写入', '消息持久化', '新建会话', '消息数超限裁剪', '配置项生效', '主动记忆搜索（可选）'],
    prefix: (s) => `000 ${s}`,
  },
  '001': {
    title: 'Seed 001 · AI Chat Memory System (working memory, long-term memory, retrieval, lifecycle)',
    scenarios: [
      'Working memory creation on new session',
      'Working memory update on each turn',
      'Working memory auto-cleanup',
      'Create long-term memory from user statement',
      'Retrieve relevant long-term memories',
      'Memory access tracking',
      'Keyword extraction from user message',
      'Category-based candidate recall',
      'Keyword matching with SQLite FTS',
      'Fallback to LIKE matching',
      'Relevance score calculation',
      'Empty retrieval result',
      'Working memory context boost',
      'Memory storage capacity',
      'Optional memory eviction for performance',
      'User delete specific memory',
      'User clear all memories',
      'List long-term memories with pagination',
      'Get working memory for session',
    ],
    prefix: (s) => `001 ${s}`,
  },
  '002': {
    title: 'Seed 002 · 对话长期记忆 (unlimited turns, rolling summaries, symbol index, recall, cleanup)',
    scenarios: ['SC-LTM-001 记忆跨越 100 轮对话', 'SC-LTM-002 基于符号的精确召回', 'SC-LTM-003 滚动摘要生成', 'SC-LTM-004 新会话继承记忆', 'SC-LTM-005 并发会话隔离', 'SC-LTM-006 记忆清理'],
    // The scenario id is its identity (a Node test may name it in English).
    prefix: (s) => s.split(' ')[0] as string,
  },
  '003': {
    title: 'Seed 003 · Memory System (semantic rules, scope, degradation) — the parts the context engine uses',
    scenarios: [],
    prefix: (s) => `003 ${s}`,
  },
  '004': {
    title: 'Seed 004 · AI Memory sprint (six layers, stable prefix, context_rules, feedback, compaction)',
    scenarios: [
      '构建一次 SKILL 调用的上下文包',
      '精准注入（只给需要的）',
      '注入规则不可解析/非法',
      '`surrounding` 的单位与裁剪规则固定',
      '`context_rules` 未知字段被拒绝',
      '同一 SKILL 类型在相同静态条件下复用前缀',
      'stablePrefixHash 的口径稳定且可用于验收',
      '行为控制使用 masking 而非删除',
      '默认自动注入（无需手动预览）',
      '采纳/拒绝触发偏好信号入库',
      '用户取消/超时',
      '历史记录自动压缩',
      '设定按需加载',
      '来源引用必须去敏并且可移植',
      '一致性检查的图谱查询',
    ],
    prefix: (s) => `004 ${s}`,
  },
};

/** Quote marks around a scenario's title in a test name ("001 \"Keyword extraction…\"") do not matter. */
const bare = (s: string) => s.replace(/[`"'“”]/g, '');

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.(test|spec)\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

interface Row {
  name: string;
  file: string;
}

function collect(): Map<string, Row[]> {
  const rows = new Map<string, Row[]>();
  for (const file of [...new Set(SOURCES.flatMap(walk))].sort()) {
    for (const name of testNames(readFileSync(join(ROOT, file), 'utf8'))) {
      const seed = /^(?:SC|REQ)-LTM-\d{3}\b/.test(name) ? '002' : /^00[0-4] /.test(name) ? name.slice(0, 3) : null;
      if (!seed) continue;
      const list = rows.get(seed) ?? [];
      if (!list.some((r) => r.name === name && r.file === file)) list.push({ name, file: relative(ROOT, join(ROOT, file)) });
      rows.set(seed, list);
    }
  }
  return rows;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

function build(rows: Map<string, Row[]>): { page: string; missing: string[] } {
  const missing: string[] = [];
  const out = [
    '# Traceability: seed scenarios → tests',
    '',
    'Generated from the test files by `tests/acceptance/traceability.test.ts`, which fails when a scenario of',
    'seeds 000, 001, 002 or 004 has no test named after it, or when this page is stale. Acceptance tests run',
    'against the real engine on sqlite-wasm (`npm run test:unit`); `tests/e2e` run in Chromium (`npm run test:e2e`).',
    'Issue-level behaviour without a seed scenario is covered by the unit tests beside the code.',
    '',
  ];
  for (const [id, seed] of Object.entries(SEEDS)) {
    const list = rows.get(id) ?? [];
    const used = new Set<Row>();
    out.push(`## ${seed.title}`, '');
    if (seed.scenarios.length > 0) {
      out.push('| scenario | tests |', '|---|---|');
      for (const scenario of seed.scenarios) {
        const want = bare(seed.prefix(scenario));
        const covering = list.filter((r) => bare(r.name).startsWith(want));
        covering.forEach((r) => used.add(r));
        if (covering.length === 0) missing.push(`${id}: ${scenario}`);
        const tests = covering.map((r) => `${cell(r.name)} (\`${r.file}\`)`).join('<br>') || '**(no test)**';
        out.push(`| ${cell(scenario)} | ${tests} |`);
      }
      out.push('');
    }
    const extra = list.filter((r) => !used.has(r));
    if (extra.length > 0) {
      out.push(seed.scenarios.length > 0 ? 'Further tests named after this seed (requirements, parts of scenarios):' : 'Tests named after this seed:', '');
      out.push('| test | file |', '|---|---|');
      for (const r of extra) out.push(`| ${cell(r.name)} | \`${r.file}\` |`);
      out.push('');
    }
  }
  return { page: out.join('\n'), missing };
}

describe('traceability', () => {
  it('reads test names with quotes, backticks and templates in them', () => {
    const src = [
      "it('001 \"Keyword extraction from user message\": \"我喜欢用 Python 写代码\"', () => {});",
      'describe("004 `surrounding` 的单位与裁剪规则固定", () => {});',
      'it.each([[1, (x) => x]])(`001 Keyword matching with SQLite FTS: "Pyth*" → ${"Python"} ($0)`, () => {});',
      "test('SC-LTM-005 it\\'s isolated', async () => {});",
      'const notATest = "it(\'000 nothing\')";',
    ].join('\n');
    expect(testNames(src)).toEqual([
      '001 "Keyword extraction from user message": "我喜欢用 Python 写代码"',
      '004 `surrounding` 的单位与裁剪规则固定',
      '001 Keyword matching with SQLite FTS: "Pyth*" → … ($0)',
      "SC-LTM-005 it's isolated",
    ]);
    expect(readLiteral('`a ${b} c`', 0)).toEqual({ text: 'a … c', end: 10 });
  });

  it('every scenario of seeds 000, 001, 002 and 004 has a test, and docs/traceability.md lists them', () => {
    const { page, missing } = build(collect());
    expect(missing).toEqual([]);
    const path = join(ROOT, 'docs', 'traceability.md');
    if (process.env.UPDATE_TRACEABILITY) writeFileSync(path, page);
    expect(readFileSync(path, 'utf8')).toBe(page);
  });

  it('a scenario without a test is reported', () => {
    const rows = new Map<string, Row[]>([['000', [{ name: '000 消息持久化: ok', file: 'x.test.ts' }]]]);
    const { missing, page } = build(rows);
    expect(missing).toContain('000: 加载用户画像');
    expect(missing).not.toContain('000: 消息持久化');
    expect(page).toContain('| 加载用户画像 | **(no test)** |');
  });
});
