/**
 * Seed 003 "记忆系统降级策略" on the real engine: a memory table that cannot be read never stops chat or
 * Write. Episodes unreadable → the rules are still served; no rules → the built-in instructions and the
 * project's settings; nothing of the memory readable (store/memory-faults.ts: every read of a memory
 * table fails as a damaged file's does) → the Rules and Immediate layers only, `memoryDegraded`, and the
 * turn still completes and is stored.
 */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { chapter, episodeOn, FIGHTS, l, sent, SHORT_TAKES } from './learning-helpers';

const RULE = '动作场景偏好短句';
const FACT = '用户的猫叫年糕';

/** A project with an episode, a project rule, a long-term memory and a profile line: memory to lose. */
async function remembered(t: TestEngine) {
  const { project, doc } = await chapter(t);
  await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
  expectOk(await t.engine.call('rules.add', { rule: RULE, category: 'pacing', scope: 'project', projectId: project.id }));
  expectOk(await t.engine.call('memory.create', { content: FACT, category: 'fact' }));
  expectOk(await t.engine.call('profile.update', { content: '- 住在杭州', expectedVersion: 0 }));
  return { project, doc };
}

const continueOn = (t: TestEngine, documentId: string, passage: string) =>
  t.engine.call('context.build', { kind: 'skill', skillId: 'continue', documentId, message: '续写', selection: { before: '', text: passage, after: '' }, locale: 'zh-CN' });

describe('seed 003 degradation: memory that cannot be read', () => {
  it('003 全部记忆不可用时的兜底: the memory tables unreadable, a chat turn and a Write run still complete on the Rules and Immediate layers, marked memoryDegraded', async () => {
    const t = await createTestEngine();
    const { doc } = await remembered(t);
    const s = expectOk(await t.engine.call('session.create', {}));
    t.faults.fault = 'memory-unreadable';

    // Chat: the user's message is stored, the context is built without any memory layer, the reply is stored.
    const prepared = expectOk(await t.engine.call('turn.prepare', { sessionId: s.id, content: '我的猫叫什么？', locale: 'zh-CN' }));
    if (!prepared.context.ok) throw new Error(`the build failed: ${prepared.context.error.code}`);
    const chat = prepared.context.run;
    expect(chat.memoryDegraded).toBe(true);
    expect(l(chat, 'L0').status).toBe('ok');
    expect(l(chat, 'L5').text).toContain('我的猫叫什么？');
    for (const id of ['L1', 'L4']) expect(l(chat, id).items).toHaveLength(0);
    expect(sent(chat)).not.toContain(FACT);
    expect(sent(chat)).not.toContain('杭州');
    const finished = expectOk(
      await t.engine.call('turn.finish', { runId: chat.runId, outcome: 'completed', text: '我不记得了。', userMessageId: prepared.message.id, toolMemoryIds: [] }),
    );
    expect(finished.message?.content).toBe('我不记得了。');
    expect(expectOk(await t.engine.call('message.list', { sessionId: s.id })).map((m) => m.content)).toEqual(['我的猫叫什么？', '我不记得了。']);

    // Write: the selection and the request reach the model; no episode, no learned rule; the run completes.
    const run = expectOk(await continueOn(t, doc.id, FIGHTS[1] as string));
    expect(run.memoryDegraded).toBe(true);
    expect(l(run, 'L5').text).toContain(FIGHTS[1] as string);
    expect(l(run, 'L4').items.filter((i) => i.id.startsWith('episode:'))).toHaveLength(0);
    expect(sent(run)).not.toContain(RULE);
    expectOk(await t.engine.call('run.complete', { runId: run.runId, status: 'completed' }));
    // The inspector's list says which runs went without memory.
    const runs = expectOk(await t.engine.call('run.list', {}));
    expect(runs.filter((r) => r.memoryDegraded).map((r) => r.id).sort()).toEqual([chat.runId, run.runId].sort());

    // The memory comes back: the next build has it again.
    t.faults.fault = null;
    const healthy = expectOk(await continueOn(t, doc.id, FIGHTS[2] as string));
    expect(healthy.memoryDegraded).toBe(false);
    expect(sent(healthy)).toContain(RULE);
  });

  it('003 记忆检索失败时降级到默认规则: episodes and rules unreadable, the engine answers the built-in default style rules marked memoryDegraded, and the continuation goes on', async () => {
    const t = await createTestEngine();
    const { doc } = await remembered(t);
    t.faults.fault = 'memory-unreadable';
    const run = expectOk(await continueOn(t, doc.id, FIGHTS[1] as string));
    expect(run.memoryDegraded).toBe(true);
    const l2 = l(run, 'L2');
    expect(l2.status).toBe('degraded');
    expect(l2.items.map((i) => i.id)).toEqual(['preference:default:language', 'preference:default:concise']);
    expect(sent(run)).toContain('保持原文的语言、人称与语气');
    expect(expectOk(await t.engine.call('run.complete', { runId: run.runId, status: 'completed' })).status).toBe('completed');
  });

  it('003 记忆系统降级策略 (情景记忆数据库损坏): episodes unreadable, the distilled rules are still served and only the case references are lost', async () => {
    const t = await createTestEngine();
    const { doc } = await remembered(t);
    t.faults.fault = 'episodes-unreadable';
    const run = expectOk(await continueOn(t, doc.id, FIGHTS[1] as string));
    expect(l(run, 'L2').text).toContain(RULE);
    expect(l(run, 'L2').status).toBe('ok');
    expect(l(run, 'L4').items.filter((i) => i.id.startsWith('episode:'))).toHaveLength(0);
    expect(run.memoryDegraded).toBe(true);
    expect(t.log.lines.some((x) => x.level === 'warn' && x.fields?.layer === 'L4')).toBe(true);
  });

  it('003 记忆系统降级策略 (语义记忆为空): a new user gets the built-in instructions and the project’s settings, with L2’s fixed placeholder — nothing is degraded', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    expectOk(await t.engine.call('projectFile.write', { projectId: project.id, path: '.engram/style/guide.md', content: '少用形容词。' }));
    const run = expectOk(await continueOn(t, doc.id, FIGHTS[1] as string));
    expect(run.memoryDegraded).toBe(false);
    expect(l(run, 'L0').text).toContain('不要编造关于用户或项目的事实');
    expect(l(run, 'L3').text).toContain('少用形容词。');
    expect(l(run, 'L2').status).toBe('empty');
  });
});
