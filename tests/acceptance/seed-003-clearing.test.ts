/**
 * Issue 19 "clearing that means it" (seed 003 记忆清除, 全量清除必须二次确认, 全量清除需记录操作人和时间戳)
 * and "cross-project reads are impossible": on the real engine with memory of every kind in two projects.
 */
import { describe, expect, it } from 'vitest';
import { MEMORY_TABLES } from '../../src/lib/engine/store/memory-faults';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { turn } from './helpers';
import { chapter, DIALOGUES, episodeOn, FIGHTS, sent, SHORT_TAKES, skillRun } from './learning-helpers';

/** One project's memory of every kind: an episode, a project rule, a project memory, a chat with a run. */
async function fill(t: TestEngine, name: string, rule: string, fact: string, passage: string) {
  const { project, doc } = await chapter(t, { project: name });
  await episodeOn(t, { documentId: doc.id, passage, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
  expectOk(await t.engine.call('rules.add', { rule, scope: 'project', projectId: project.id }));
  expectOk(await t.engine.call('memory.create', { content: fact, scope: 'project', projectId: project.id }));
  const s = expectOk(await t.engine.call('session.create', { projectId: project.id }));
  const p = expectOk(await t.engine.call('turn.prepare', { sessionId: s.id, content: `${name} 的下一章写什么？`, locale: 'zh-CN' }));
  if (p.context.ok) expectOk(await t.engine.call('turn.finish', { runId: p.context.run.runId, outcome: 'completed', text: '写一场追逐。', toolMemoryIds: [] }));
  // The story graph: one character and where they are.
  const hero = expectOk(await t.engine.call('graph.addEntity', { projectId: project.id, type: 'character', name: `${name}的主角` }));
  expectOk(await t.engine.call('graph.addFact', { projectId: project.id, subject: hero.id, predicate: 'location', object: '港口', evidence: [{ ref: `doc:${doc.id}` }] }));
  return { project, doc, session: s };
}

const count = (t: TestEngine, table: string) => t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n ?? 0;
const counts = (t: TestEngine) => Object.fromEntries([...MEMORY_TABLES, 'context_runs', 'sessions', 'messages'].map((x) => [x, count(t, x)]));

async function everything(t: TestEngine) {
  const a = await fill(t, '实验小说', 'A 项目：对白不用感叹号', 'A 项目的主角叫林澈', FIGHTS[0] as string);
  const b = await fill(t, '科幻短篇', 'B 项目：使用第三人称全知', 'B 项目的飞船叫晨星号', DIALOGUES[0] as string);
  expectOk(await t.engine.call('rules.add', { rule: '全局：少用形容词' }));
  expectOk(await t.engine.call('memory.create', { content: '用户住在杭州' }));
  expectOk(await t.engine.call('profile.update', { content: '- 写科幻小说', expectedVersion: 0 }));
  const free = expectOk(await t.engine.call('session.create', {}));
  await turn(t, free.id, '你好', '你好！');
  return { a, b, free };
}

describe('issue 19 clearing that means it', () => {
  it('003 全量清除必须二次确认: memory.clearAll without confirmation answers MEMORY_CLEAR_CONFIRM_REQUIRED and deletes nothing; confirmed, a fresh user — conversations kept unless ticked — and the audit log says when and who', async () => {
    const t = await createTestEngine();
    await everything(t);
    const before = counts(t);
    for (const input of [{}, { confirm: false }, { confirm: false, includeConversations: true }]) {
      const res = await t.engine.call('memory.clearAll', input);
      expect(res.ok ? null : res.error.code).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    }
    expect(counts(t)).toEqual(before);
    expect(expectOk(await t.engine.call('memory.clearLog', {}))).toEqual([]);

    const report = expectOk(await t.engine.call('memory.clearAll', { confirm: true }));
    expect(report.counts).toMatchObject({ episodes: 2, rules: 3, memories: 3, profileVersions: 1, graphFacts: 2, graphEntities: 2 });
    expect(report.counts.runs).toBeGreaterThanOrEqual(4);
    for (const table of ['memories', 'user_profile', 'summaries', 'episodes', 'semantic_rules', 'rule_history', 'feedback_events', 'run_learning', 'context_runs', 'kg_facts', 'kg_entities'])
      expect(count(t, table), table).toBe(0);
    // A fresh user: nothing is listed, nothing is injected — but the conversations and documents stay.
    expect(expectOk(await t.engine.call('rules.list', {}))).toEqual([]);
    expect(expectOk(await t.engine.call('memory.list', {})).total).toBe(0);
    expect(expectOk(await t.engine.call('profile.get', {})).content).toBe('');
    expect(count(t, 'sessions')).toBe(before.sessions);
    expect(count(t, 'messages')).toBe(before.messages);
    expect(count(t, 'documents')).toBe(2);

    const log = expectOk(await t.engine.call('memory.clearLog', {}));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ kind: 'all', at: t.clock.now(), counts: report.counts, projectId: null });
    expect(log[0]?.profileId).toMatch(/^local-/);

    // Ticked: the conversations go too; the same local profile is named.
    t.clock.advance(60_000);
    const again = expectOk(await t.engine.call('memory.clearAll', { confirm: true, includeConversations: true }));
    expect(again.counts.conversations).toBe(before.sessions);
    expect(count(t, 'sessions') + count(t, 'messages')).toBe(0);
    const [latest, first] = expectOk(await t.engine.call('memory.clearLog', {}));
    expect(latest?.at).toBeGreaterThan(first?.at ?? Infinity);
    expect(latest?.profileId).toBe(first?.profileId);
  });

  it('003 用户执行项目级清除 (issue 19): clear:project takes the project’s runs and long-term memories too, needs confirmation, leaves global memory and the other project untouched, and is logged', async () => {
    const t = await createTestEngine();
    const { a, b } = await everything(t);
    const before = counts(t);
    const refused = await t.engine.call('memory.clearProject', { projectId: a.project.id });
    expect(refused.ok ? null : refused.error.code).toBe('MEMORY_CLEAR_CONFIRM_REQUIRED');
    expect(counts(t)).toEqual(before);

    const report = expectOk(await t.engine.call('memory.clearProject', { projectId: a.project.id, confirm: true }));
    expect(report).toMatchObject({ projectId: a.project.id, episodes: 1, rules: 1, memories: 1, graphFacts: 1, graphEntities: 1 });
    // The story graph of A is gone, B's still answers.
    const graphOf = async (project: { id: string }, name: string) => expectOk(await t.engine.call('graph.check', { projectId: project.id, names: [name] }));
    expect(await graphOf(a.project, '实验小说的主角')).toMatchObject({ entities: [], facts: [] });
    expect((await graphOf(b.project, '科幻短篇的主角')).facts.map((f) => f.object)).toEqual(['港口']);
    expect(report.runs).toBeGreaterThanOrEqual(2);
    const runsOfA = t.driver.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM context_runs WHERE project_id = ? OR session_id IN (SELECT id FROM sessions WHERE project_id = ?) OR document_id = ?',
      [a.project.id, a.project.id, a.doc.id],
    )?.n;
    expect(runsOfA).toBe(0);
    // Global memory and project B are untouched.
    expect(expectOk(await t.engine.call('rules.list', { projectId: b.project.id })).map((r) => r.rule).sort()).toEqual(['B 项目：使用第三人称全知', '全局：少用形容词']);
    const left = expectOk(await t.engine.call('memory.list', {})).items.map((m) => m.content).sort();
    expect(left).toEqual(['B 项目的飞船叫晨星号', '用户住在杭州']);
    expect(expectOk(await t.engine.call('episode.list', { projectId: b.project.id })).total).toBe(1);
    // The conversation and the chapter stay: only memory was cleared.
    expect(expectOk(await t.engine.call('message.list', { sessionId: a.session.id })).length).toBe(2);
    const [entry] = expectOk(await t.engine.call('memory.clearLog', {}));
    expect(entry).toMatchObject({ kind: 'project', projectId: a.project.id, projectName: '实验小说', counts: { episodes: 1, rules: 1, memories: 1 } });
  });

  it('003 跨项目读取 (edge-case matrix): episode.query, rules.list and a context build of project A never return project B’s items', async () => {
    const t = await createTestEngine();
    const { a, b } = await everything(t);
    const episodes = expectOk(await t.engine.call('episode.query', { projectId: a.project.id, text: `${FIGHTS[0]}${DIALOGUES[0]}` }));
    expect(episodes.items.length).toBeGreaterThan(0);
    expect(episodes.items.every((e) => e.episode.projectId === a.project.id)).toBe(true);
    const rules = expectOk(await t.engine.call('rules.list', { projectId: a.project.id }));
    expect(rules.some((r) => r.projectId === b.project.id)).toBe(false);
    expect(rules.map((r) => r.rule)).toContain('A 项目：对白不用感叹号');
    const run = await skillRun(t, { documentId: a.doc.id, passage: `${DIALOGUES[0]}晨星号第三人称全知`, message: '晨星号 第三人称' });
    expect(sent(run)).not.toContain('B 项目：使用第三人称全知');
    expect(sent(run)).not.toContain('B 项目的飞船叫晨星号');
    // B's episode (on this very dialogue) is not recalled for A.
    expect(run.layers.find((x) => x.id === 'L4')?.items.filter((i) => i.id.startsWith('episode:')) ?? []).toHaveLength(0);
    const chat = expectOk(await t.engine.call('context.build', { kind: 'chat', projectId: a.project.id, message: '晨星号是什么？', locale: 'zh-CN' }));
    expect(sent(chat)).not.toContain('B 项目的飞船叫晨星号');
    expect(sent(chat)).not.toContain('B 项目：使用第三人称全知');
  });
});
