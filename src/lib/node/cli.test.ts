/**
 * The CLI as a person runs it (a child process per command) on a file database in a temp project:
 * init → store → recall → summarize → export → import elsewhere → cleanup → reindex, in seed 002's shapes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DAY_MS, fixedClock } from '../domain/clock';
import { segmenterVersion } from '../domain/text';
import { dumpDatabase } from '../engine/backup/testing';
import { expectOk } from '../engine/testing';
import { fsProjectFileStore } from './fs-project-file-store';
import { openFileEngine } from './open-file-db';
import { jsonOf, runCliProcess, tempProject } from './testing';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('engram CLI (seed 002 API contract) on a file database', () => {
  const project = tempProject();
  const root = ['--project-root', project.dir];
  const dbPath = join(project.dir, '.engram', 'conversation-memory.db');
  const cli = (...args: string[]) => runCliProcess([...args, ...root]);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  /** The database as the engine sees it, opened in this process between commands. */
  const withDb = async <T>(run: (db: ReturnType<typeof openFileEngine>) => Promise<T>, opts: { path?: string; now?: number } = {}) => {
    const db = openFileEngine({ dbPath: opts.path ?? dbPath, clock: opts.now === undefined ? undefined : fixedClock(opts.now) });
    try {
      return await run(db);
    } finally {
      db.close();
    }
  };

  afterAll(() => project.remove());

  it('init creates the database under <project-root>/.engram in WAL mode', async () => {
    const out = jsonOf(await ok('init'));
    expect(out).toMatchObject({ db_path: dbPath, created: true, journal_mode: 'wal', segmenter_version: segmenterVersion() });
    expect(out.schema_version).toBeGreaterThanOrEqual(5);
    expect(existsSync(dbPath)).toBe(true);
  });

  it('store answers turn_id, conversation_id, symbols_extracted, stored_at — and creates the conversation', async () => {
    const before = Date.now();
    const turns = [
      ['user', 'validateOrder 需要重构，OrderValidator 太大了'],
      ['assistant', '已经把 OrderValidator 拆成两个类。'],
    ].map(([role, content]) => JSON.stringify({ role, content }));
    // Two processes, two conversations, at the same time: one turn from options, two from stdin.
    const [single, piped] = await Promise.all([
      cli('store', '--conversation', 'conv-0115', '--role', 'user', '--content', 'processPayment 在 src/payment.ts 里有并发问题，PaymentHandler 没有加锁'),
      runCliProcess(['store', '--conversation', 'conv-0120', '--stdin', ...root], { input: turns.join('\n') }),
    ]);
    expect([single.code, piped.code, single.stderr, piped.stderr]).toEqual([0, 0, '', '']);
    const first = jsonOf(single.stdout);
    expect(Object.keys(first).sort()).toEqual(['conversation_id', 'stored_at', 'symbols_extracted', 'turn_id']);
    expect(first).toMatchObject({ conversation_id: 'conv-0115', turn_id: expect.any(Number) });
    expect(first.symbols_extracted).toEqual(expect.arrayContaining(['processPayment', 'src/payment.ts', 'PaymentHandler']));
    expect(first.stored_at).toMatch(ISO);
    expect(Date.parse(first.stored_at as string)).toBeGreaterThanOrEqual(before - 1000);
    // --stdin prints one 002 result line per stored turn.
    const stored = piped.stdout.trim().split('\n').map(jsonOf);
    expect(stored.map((s) => s.conversation_id)).toEqual(['conv-0120', 'conv-0120']);
    expect(stored[0]?.symbols_extracted).toEqual(expect.arrayContaining(['validateOrder', 'OrderValidator']));
    expect(new Set([first.turn_id, ...stored.map((s) => s.turn_id)]).size).toBe(3);
  });

  it('recall finds the processPayment turn first and not the validateOrder one (SC-LTM-002), in 002’s shape', async () => {
    const out = jsonOf(await ok('recall', '--query', '之前 processPayment 的问题解决了吗', '--limit', '5'));
    expect(Object.keys(out).sort()).toEqual(['latency_ms', 'results', 'total_searched']);
    const results = out.results as Record<string, unknown>[];
    expect(results.length).toBeGreaterThan(0);
    expect(results[0]).toMatchObject({ conversation_id: 'conv-0115', is_summary: false, content: expect.stringContaining('processPayment') });
    expect(Object.keys(results[0] as object).sort()).toEqual(['content', 'conversation_id', 'created_at', 'is_summary', 'relevance', 'role', 'turn_id']);
    expect(results[0]?.created_at).toMatch(ISO);
    expect(results.some((r) => String(r.content).includes('validateOrder'))).toBe(false);
    // Turns searched: conv-0115 has one, conv-0120 one (a question and its reply are one turn).
    expect(out.total_searched).toBe(2);
  });

  it('summarize returns summary_id, turns_summarized, key_symbols and key_decisions', async () => {
    const out = jsonOf(await ok('summarize', '--conversation', 'conv-0115', '--from-turn', '1', '--to-turn', '1'));
    expect(out).toMatchObject({ summary_id: expect.any(Number), conversation_id: 'conv-0115', turns_summarized: [1], summary: expect.any(String) });
    expect(out.key_symbols).toEqual(expect.arrayContaining(['processPayment']));
    expect(Array.isArray(out.key_decisions)).toBe(true);
  });

  it('exports the app’s JSON format and imports it into another database with nothing lost', async () => {
    // Data the CLI does not write itself: a long-term memory, a project and one of its setting files.
    await withDb(async ({ engine }) => {
      expectOk(await engine.call('memory.create', { content: '我喜欢用 Python 写代码', category: 'preference' }));
      const p = expectOk(await engine.call('project.create', { name: '长夜' }));
      expectOk(await engine.call('projectFile.write', { projectId: p.id, path: '.engram/characters/alice.md', content: '# Alice' }));
    });
    const file = join(project.dir, 'backup.json');
    const exported = jsonOf(await ok('export', '--out', file));
    expect(exported).toMatchObject({ file, total_files: 1 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'engram-export', scope: { kind: 'all' } });

    const second = join(project.dir, 'elsewhere', 'second.db');
    const imported = jsonOf(await ok('import', file, '--db', second));
    expect(imported).toMatchObject({ mode: 'merge', conflicts_total: 0, files: { added: 1 } });
    expect((imported.tables as Record<string, { added: number }>).messages?.added).toBe(3);

    const dump = (path: string) => withDb(({ driver }) => dumpDatabase({ driver, files: fsProjectFileStore(dirname(path)) }), { path });
    expect(await dump(second)).toEqual(await dump(dbPath));
  });

  it('cleanup --older-than 30d deletes the old conversation, keeps the recent ones, and counts it (SC-LTM-006)', async () => {
    await withDb(
      async ({ engine }) => {
        expectOk(await engine.call('session.create', { id: 'conv-old' }));
        expectOk(await engine.call('message.append', { sessionId: 'conv-old', role: 'user', content: 'CacheManager 的实现' }));
        expectOk(await engine.call('message.append', { sessionId: 'conv-old', role: 'assistant', content: '用 LRU 实现 CacheManager' }));
      },
      { now: Date.now() - 60 * DAY_MS },
    );
    const old = jsonOf(await ok('cleanup', '--older-than', '30d'));
    expect(Object.keys(old).sort()).toEqual(['conversations_deleted', 'space_freed_kb', 'summaries_deleted', 'turns_deleted']);
    expect(old).toMatchObject({ conversations_deleted: 1, turns_deleted: 2, summaries_deleted: 0 });
    const left = await withDb(async ({ engine }) => expectOk(await engine.call('session.list', {})).items.map((s) => s.id));
    expect(left.sort()).toEqual(['conv-0115', 'conv-0120']);
  });

  it('reindex rebuilds every full-text row with the current segmenter', async () => {
    const out = jsonOf(await ok('reindex'));
    expect(out).toMatchObject({ turns_reindexed: 3, summaries_reindexed: 1, memories_reindexed: 1, segmenter_version: segmenterVersion() });
  });

  it('bad input exits 2 with a JSON error on stderr naming the option', async () => {
    const r = await cli('recall', '--query', 'processPayment', '--limit', 'many');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const err = jsonOf(r.stderr).error as Record<string, unknown>;
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', fields: ['--limit'] });
    expect(err.message).toContain('`--limit`');
    expect(err.message).not.toContain('many');
  });
});

describe('engram store keeps 002’s rolling summaries without a jobs worker', () => {
  const project = tempProject();
  afterAll(() => project.remove());

  it('after --stdin stores 12 turns, turns 1–5 have their summary (REQ-LTM-002) and the last 5 stay full', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => [
      JSON.stringify({ role: 'user', content: `第${i + 1}轮：OrderService 的 processPayment 有并发问题` }),
      JSON.stringify({ role: 'assistant', content: i === 2 ? '我们决定使用互斥锁保护关键区域。' : `分析第${i + 1}轮的日志。` }),
    ]).flat();
    const r = await runCliProcess(['store', '--conversation', 'conv-long', '--stdin', '--project-root', project.dir], { input: lines.join('\n') });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const db = openFileEngine({ dbPath: join(project.dir, '.engram', 'conversation-memory.db') });
    try {
      const summaries = expectOk(await db.engine.call('summary.list', { sessionId: 'conv-long' }));
      expect(summaries.map((s) => [s.startTurn, s.endTurn])).toEqual([[1, 5]]);
      expect(summaries[0]?.keyDecisions.join(' ')).toContain('互斥锁');
    } finally {
      db.close();
    }
  });
});
