/**
 * Seed 003 "异常与边界覆盖矩阵", the rows of issue 19's no-memory mode and clearing: an IO failure during a
 * read, an out-of-range confidence, an episode with fields missing, a trace whose items are gone, and an
 * unconfirmed clear (cross-project reads: seed-003-clearing.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { chapter, episodeOn, FIGHTS, SHORT_TAKES, skillRun } from './learning-helpers';

const codeOf = (res: { ok: boolean; error?: { code: string } }) => (res.ok ? 'ok' : res.error?.code);
const fieldsOf = (res: { ok: boolean; error?: { details?: unknown } }) => (res.ok ? [] : ((res.error?.details as { fields?: string[] } | undefined)?.fields ?? []));
const rows = (t: Awaited<ReturnType<typeof createTestEngine>>, table: string) => t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n;

describe('seed 003 edge-case matrix (issue 19 rows)', () => {
  it('003 异常与边界 记忆库读失败: a read of an unreadable memory table answers DB_UNAVAILABLE with guidance (episode recall degrades and says so), the engine keeps serving, and a Write run degrades instead', async () => {
    const t = await createTestEngine();
    const { doc } = await chapter(t);
    await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
    t.faults.fault = 'memory-unreadable';
    for (const method of ['memory.list', 'rules.list'] as const) {
      const res = await t.engine.call(method, {});
      expect(codeOf(res), method).toBe('DB_UNAVAILABLE');
      expect(res.ok ? '' : res.error.message).toMatch(/damaged/);
    }
    // Episode recall degrades by itself and says so.
    const recalled = expectOk(await t.engine.call('episode.query', { text: FIGHTS[1] as string }));
    expect(recalled).toMatchObject({ degraded: true, items: [] });
    expect(expectOk(await t.engine.call('system.status', {}))).toBeTruthy();
    const run = await skillRun(t, { documentId: doc.id, passage: FIGHTS[1] as string });
    expect(run.memoryDegraded).toBe(true);
  });

  it('003 异常与边界 置信度越界: a confidence or importance outside 0..1 is refused naming the field, and nothing is stored', async () => {
    const t = await createTestEngine();
    for (const [field, value] of [
      ['confidence', 1.5],
      ['confidence', -0.1],
      ['importance', 2],
    ] as const) {
      const res = await t.engine.call('memory.create', { content: '用户喜欢短句', [field]: value });
      expect(codeOf(res)).toBe('INVALID_ARGUMENT');
      expect(fieldsOf(res)).toContain(field);
    }
    expect(rows(t, 'memories')).toBe(0);
  });

  it('003 异常与边界 episode 字段缺失: an episode without its candidates, its choice or its skill is refused naming the field, and nothing is stored', async () => {
    const t = await createTestEngine();
    const { doc } = await chapter(t);
    const run = await skillRun(t, { documentId: doc.id, passage: FIGHTS[0] as string });
    const cases: [Record<string, unknown>, string][] = [
      [{ runId: run.runId, selectedIndex: 0 }, 'candidates'],
      [{ runId: run.runId, candidates: ['a'] }, 'selectedIndex'],
      [{ candidates: ['a'], selectedIndex: 0 }, 'runId'],
    ];
    for (const [input, field] of cases) {
      const res = await t.engine.call('episode.record', input as never);
      expect(codeOf(res)).toBe('INVALID_ARGUMENT');
      expect(fieldsOf(res)).toContain(field);
    }
    expect(rows(t, 'episodes')).toBe(0);
  });

  it('003 异常与边界 trace 失配: run.trace on a run whose rule and episode were since deleted shows them as gone, the rest as they were', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
    const kept = expectOk(await t.engine.call('rules.add', { rule: '全局：少用形容词' }));
    const dropped = expectOk(await t.engine.call('rules.add', { rule: '动作场景偏好短句', scope: 'project', projectId: project.id }));
    const run = await skillRun(t, { documentId: doc.id, passage: FIGHTS[3] as string, before: FIGHTS.slice(0, 3).join('\n') });
    const before = expectOk(await t.engine.call('run.trace', { runId: run.runId }));
    const episodeRef = before.memoryReferences.find((r) => r.type === 'episode');
    expect(episodeRef).toBeDefined();
    expect(before.memoryReferences.some((r) => r.gone)).toBe(false);

    expectOk(await t.engine.call('rules.delete', { id: dropped.id }));
    t.driver.run('DELETE FROM episodes WHERE id = ?', [episodeRef?.id.slice('episode:'.length)]);
    const after = expectOk(await t.engine.call('run.trace', { runId: run.runId }));
    expect(after.memoryReferences.map((r) => r.id)).toEqual(before.memoryReferences.map((r) => r.id));
    const gone = after.memoryReferences.filter((r) => r.gone).map((r) => r.id).sort();
    expect(gone).toEqual([`preference:${dropped.id}`, episodeRef?.id].sort());
    expect(after.memoryReferences.find((r) => r.id === `preference:${kept.id}`)?.gone).toBeUndefined();
  });

  it('003 异常与边界 全量清除未确认: clear:all and clear:project without confirm: true answer MEMORY_CLEAR_CONFIRM_REQUIRED and delete nothing', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
    expectOk(await t.engine.call('memory.create', { content: '用户住在杭州' }));
    const before = ['episodes', 'memories', 'context_runs'].map((x) => rows(t, x));
    expect(codeOf(await t.engine.call('memory.clearAll', {}))).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    expect(codeOf(await t.engine.call('memory.clearAll', { confirm: false }))).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    expect(codeOf(await t.engine.call('memory.clearProject', { projectId: project.id }))).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    expect(['episodes', 'memories', 'context_runs'].map((x) => rows(t, x))).toEqual(before);
    expect(expectOk(await t.engine.call('memory.clearLog', {}))).toEqual([]);
  });
});
