/**
 * Seed 000 (Memory 能力规格) scenarios for atomic memory, the user profile, configuration and the
 * optional agentic search, against the real engine on sqlite-wasm.
 */
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/lib/domain/llm';
import { createSearchMemoriesTool } from '../../src/lib/domain/llm/search-memories-tool';
import { DEFAULT_MODEL_SETTINGS } from '../../src/lib/domain/llm/settings';
import { generateReply } from '../../src/lib/engine/client/generate-reply';
import { startFakeOpenAi } from '../fixtures/fake-openai-server';
import { unwrap } from '../../src/lib/domain/errors';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { build } from './context-helpers';
import { DAY_MS, newSession, turn } from './helpers';

async function say(t: TestEngine, sessionId: string, user: string) {
  const { user: stored } = await turn(t, sessionId, user, '好的。');
  return expectOk(await t.engine.call('memory.extract', { sessionId, userMessageId: stored.message.id }));
}

describe('seed 000 memory', () => {
  it('000 被动 RAG 检索原子记忆: GetRelevantMemories(currentQuery, topN) fills the context; what is used is marked accessed', async () => {
    const t = await createTestEngine();
    for (const topic of ['异步', '类型注解', '打包', '测试', '性能', '调试', '部署']) {
      expectOk(await t.engine.call('memory.create', { content: `Python 项目的${topic}经验`, tags: ['python'] }));
    }
    const s = await newSession(t);
    const query = 'Python 项目的性能怎么优化';
    const context = expectOk(await t.engine.call('memory.retrieve', { query, sessionId: s.id, purpose: 'context' }));
    expect(context.topN).toBe(5);
    expect(context.items).toHaveLength(5);
    expect(context.items[0]?.memory.content).toBe('Python 项目的性能经验');
    const ids = context.items.map((i) => i.memory.id);
    expectOk(await t.engine.call('memory.markAccessed', { ids }));
    const used = expectOk(await t.engine.call('memory.getMany', { ids }));
    expect(used.every((m) => m.accessCount === 1 && m.lastAccessed === t.clock.now())).toBe(true);
  });

  it('000 原子记忆异步写入: after a reply the user’s new information is stored once; a change supersedes and can be undone', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const first = await say(t, s.id, '我喜欢喝咖啡');
    expect(first.decisions).toMatchObject([{ kind: 'add' }]);
    const coffee = expectOk(await t.engine.call('memory.get', { id: first.decisions[0]!.memoryId! })).memory;
    // The atomic memory's fields: id, time, the user's own words, tags, the session it came from.
    expect(coffee).toMatchObject({ content: '我喜欢喝咖啡。', sessionId: s.id, createdAt: t.clock.now() });
    expect(coffee.id).toBeTruthy();
    expect(Array.isArray(coffee.tags)).toBe(true);

    // Dedupe: saying the same thing again changes nothing.
    const again = await say(t, s.id, '我很喜欢咖啡');
    expect(again.decisions).toMatchObject([{ kind: 'noop', memoryId: coffee.id, reason: 'duplicate' }]);
    expect(expectOk(await t.engine.call('memory.list', {})).total).toBe(1);

    // Conflict: a changed preference supersedes the old one, which stays in history.
    const changed = await say(t, s.id, '我现在不喜欢喝咖啡了，改喝茶');
    const superseding = changed.decisions.find((d) => d.kind === 'supersede')!;
    expect(superseding.replacedId).toBe(coffee.id);
    expect(changed.decisions.map((d) => d.kind).sort()).toEqual(['add', 'supersede']);
    const old = expectOk(await t.engine.call('memory.get', { id: coffee.id }));
    expect(old.memory).toMatchObject({ status: 'superseded', supersededBy: superseding.memoryId });
    expect(old.history.map((h) => h.action)).toEqual(['supersede', 'create']);
    const active = expectOk(await t.engine.call('memory.list', {})).items.map((m) => m.content);
    // One fact each (issue 15): the two clauses are two memories, each its own sentence.
    expect(active).toEqual(['我改喝茶。', '我现在不喜欢喝咖啡了。']);

    // "Remembered … [undo]": undoing the new memory brings the old one back.
    const undone = expectOk(await t.engine.call('memory.undo', { id: superseding.memoryId! }));
    expect(undone).toMatchObject({ kind: 'deleted', memoryId: superseding.memoryId, restored: [coffee.id] });
    expect(expectOk(await t.engine.call('memory.get', { id: coffee.id })).memory.status).toBe('active');
  });

  it('000 加载用户画像: the profile is a visible document, loaded when memory.enable_user_profile is on', async () => {
    const t = await createTestEngine();
    expect(expectOk(await t.engine.call('profile.get', {}))).toMatchObject({ content: '', version: 0, enabled: true });
    const doc = '## 回复风格\n- 先给结论\n\n## 背景\n- 后端工程师\n';
    expectOk(await t.engine.call('profile.update', { content: doc }));
    expect(expectOk(await t.engine.call('profile.get', {}))).toMatchObject({ content: doc, version: 1, actor: 'user', enabled: true });
    // Building a request's context loads it into L1 (what the model receives).
    const s = await newSession(t);
    const on = await build(t, { sessionId: s.id, message: '你好' });
    const l1 = on.layers.find((l) => l.id === 'L1')!;
    expect(l1).toMatchObject({ status: 'ok', sources: ['profile:v1'] });
    expect(l1.text).toContain('- 先给结论');
    expect(on.messages[0]?.content).toContain('- 后端工程师');
    // Switched off: the document stays, but no request carries it.
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.enable_user_profile': false } }));
    expect(expectOk(await t.engine.call('profile.get', {}))).toMatchObject({ content: doc, enabled: false });
    const off = await build(t, { sessionId: s.id, message: '你好' });
    expect(off.layers.find((l) => l.id === 'L1')).toMatchObject({ status: 'empty', sources: [] });
    expect(off.messages.map((m) => m.content).join('\n')).not.toContain('后端工程师');
  });

  it('000 更新用户画像: a preference or style in the user prompt updates user_profile, visibly and undoably', async () => {
    const t = await createTestEngine();
    const s = await newSession(t);
    const res = await say(t, s.id, '以后请回答简洁一点。我叫小明');
    expect(res.profileChanged).toBe(true);
    expect(res.profileChanges.map((c) => [c.action, c.text])).toEqual([
      ['added', '回答长度：简洁'],
      ['added', '称呼：小明'],
    ]);
    const profile = expectOk(await t.engine.call('profile.get', {}));
    expect(profile).toMatchObject({ version: 1, actor: 'extractor' });
    expect(profile.content).toContain('- 回答长度：简洁');
    expect(profile.content).toContain('- 称呼：小明');
    // Said again: nothing new.
    expect((await say(t, s.id, '以后请回答简洁一点')).profileChanged).toBe(false);

    // The user edits it; an editor holding an old version gets CONFLICT instead of overwriting.
    const edited = `${profile.content}- 住在杭州\n`;
    expectOk(await t.engine.call('profile.update', { content: edited, expectedVersion: 1 }));
    const stale = await t.engine.call('profile.update', { content: 'lost edit', expectedVersion: 1 });
    expect(stale).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });

    // A later preference replaces its line; undo brings the previous text back.
    const changed = await say(t, s.id, '以后回答详细一些');
    expect(changed.profileChanges).toEqual([{ section: 'reply_style', action: 'replaced', previous: '回答长度：简洁', text: '回答长度：详细' }]);
    const undo = expectOk(await t.engine.call('profile.undo', {}));
    expect(undo.undone).toBe(3);
    expect(undo.profile.content).toBe(edited);
    const history = expectOk(await t.engine.call('profile.history', {}));
    expect(history.items.map((v) => [v.version, v.actor, v.reason])).toEqual([
      [4, 'user', 'undo'],
      [3, 'extractor', 'extract'],
      [2, 'user', 'edit'],
      [1, 'extractor', 'extract'],
    ]);

    // The chat's "Remembered: 叫我小明 [Undo]": the name leaves the memories and the profile (L1) together.
    const u = await createTestEngine();
    const v = await newSession(u);
    const named = await say(u, v.id, '叫我小明就行。我住在杭州');
    const name = named.decisions.find((d) => d.key === 'fact.name')!;
    const l1 = async () => (await build(u, { sessionId: v.id })).layers.find((l) => l.id === 'L1')!.text;
    expect(await l1()).toContain('称呼：小明');
    const undone = expectOk(await u.engine.call('memory.undo', { id: name.memoryId! }));
    expect(undone).toMatchObject({ kind: 'deleted', profileChanged: true, profileChanges: [{ action: 'removed', previous: '称呼：小明' }] });
    expect(await l1()).not.toContain('小明');
    expect(await l1()).toContain('居住地：杭州');
  });

  it('000 配置项生效: a new memory.rag_top_n is the topN of the next passive retrieval', async () => {
    const t = await createTestEngine();
    for (let i = 0; i < 8; i++) expectOk(await t.engine.call('memory.create', { content: `TypeScript 笔记 ${i}` }));
    const top = async () => expectOk(await t.engine.call('memory.retrieve', { query: 'TypeScript', purpose: 'context' })).items.length;
    expect(await top()).toBe(5);
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.rag_top_n': 2 } }));
    expect(await top()).toBe(2);
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.rag_top_n': 0 } }));
    expect(await top()).toBe(0);

    // memory.atomic_content_max_length: a longer manual memory is refused naming `content`; extraction cuts.
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.atomic_content_max_length': 40 } }));
    const long = '我'.repeat(41);
    const refused = await t.engine.call('memory.create', { content: long });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    expect(!refused.ok && refused.error.message).toContain('`content`');
    expect(!refused.ok && refused.error.message).not.toContain(long);
    const s = await newSession(t);
    const said = await say(t, s.id, '我叫小明，是一名在杭州工作了很多年的软件工程师，平时最常做的事情是研究数据库的索引和查询优化');
    const stored = expectOk(await t.engine.call('memory.getMany', { ids: said.decisions.map((d) => d.memoryId!) }));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((m) => Array.from(m.content).length <= 40)).toBe(true);
  });

  it('000 记忆可配置与透明: every memory can be viewed, edited (with history) and deleted', async () => {
    const t = await createTestEngine();
    const m = expectOk(await t.engine.call('memory.create', { content: '项目用 Vue 2', tags: ['frontend'] }));
    const edited = expectOk(await t.engine.call('memory.update', { id: m.id, content: '项目用 Svelte 5', expectedVersion: 1 }));
    expect(edited).toMatchObject({ version: 2, content: '项目用 Svelte 5' });
    const search = async (q: string) => expectOk(await t.engine.call('memory.retrieve', { query: q })).items.map((i) => i.memory.id);
    expect(await search('Svelte')).toEqual([m.id]);
    expect(await search('Vue')).toEqual([]);
    const detail = expectOk(await t.engine.call('memory.get', { id: m.id }));
    expect(detail.history.map((h) => [h.action, h.actor, h.before?.content, h.after?.content])).toEqual([
      ['update', 'user', '项目用 Vue 2', '项目用 Svelte 5'],
      ['create', 'user', undefined, '项目用 Vue 2'],
    ]);
    expect(await t.engine.call('memory.update', { id: m.id, content: 'stale', expectedVersion: 1 })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expectOk(await t.engine.call('memory.undo', { id: m.id }));
    expect(await search('Vue')).toEqual([m.id]);
    expectOk(await t.engine.call('memory.delete', { id: m.id }));
    expect(expectOk(await t.engine.call('memory.list', {})).total).toBe(0);
  });

  it('000 主动记忆搜索（可选）: when memory.enable_agentic_search is on, the model’s search_memories(keyword, timeRange) runs SearchMemories and gets the result; off, no tool is offered', async () => {
    const t = await createTestEngine();
    const early = expectOk(await t.engine.call('memory.create', { content: 'Python 打包用 uv' }));
    t.clock.advance(10 * DAY_MS);
    const middle = expectOk(await t.engine.call('memory.create', { content: 'Python 类型检查用 pyright' }));
    t.clock.advance(10 * DAY_MS);
    expectOk(await t.engine.call('memory.create', { content: 'Python 测试用 pytest' }));
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.enable_agentic_search': true } }));

    const all = expectOk(await t.engine.call('memory.search', { keyword: 'python' }));
    expect(all.items).toHaveLength(3);
    const ranged = expectOk(await t.engine.call('memory.search', { keyword: 'Python', fromMs: early.createdAt, toMs: middle.createdAt }));
    expect(ranged.items.map((i) => i.memory.id).sort()).toEqual([early.id, middle.id].sort());
    expect(await t.engine.call('memory.search', { keyword: 'Python', fromMs: 2, toMs: 1 })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });

    // The tool the model calls, answered by the engine (dates as the model sends them).
    const tool = createSearchMemoriesTool({ clock: t.clock, search: async (q) => unwrap(await t.engine.call('memory.search', { ...q, limit: 10 })) });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const answer = (await tool.run({ keyword: 'Python', timeRange: { from: day(middle.createdAt), to: day(middle.createdAt) } })) as { items: { memory: { id: string } }[] };
    expect(answer.items.map((i) => i.memory.id)).toEqual([middle.id]);

    // A chat turn against a scripted OpenAI-compatible model that calls the tool: the setting decides.
    // (rag_top_n 0: nothing comes through L4, so whatever the model sees it found itself.)
    expectOk(await t.engine.call('settings.update', { patch: { 'memory.rag_top_n': 0 } }));
    const server = await startFakeOpenAi({ replies: (req) => (JSON.stringify(req.body).includes('"role":"tool"') ? { text: '用 pyright。' } : { toolCalls: [{ name: 'search_memories', arguments: { keyword: '类型检查' } }] }) });
    try {
      const provider = createProvider({ ...DEFAULT_MODEL_SETTINGS, provider: 'openai-compatible', baseUrl: server.url, model: 'test-model' });
      const turnWith = async () => {
        const s = await newSession(t);
        const run = expectOk(await t.engine.call('context.build', { kind: 'chat', sessionId: s.id, message: '我用什么做类型检查？', locale: 'zh-CN' }));
        const before = server.requests.length;
        const out = await generateReply({ engine: t.engine, provider, messages: run.messages, runId: run.runId, signal: new AbortController().signal, clock: t.clock, onDelta: () => {} });
        const sent = server.requests.slice(before).map((r) => r.body as { tools?: unknown[]; messages: { role: string; content: string }[] });
        return { out, sent, run: expectOk(await t.engine.call('run.get', { runId: run.runId })) };
      };
      const on = await turnWith();
      expect(on.sent[0]?.tools).toHaveLength(1);
      expect(on.sent[1]?.messages.find((m) => m.role === 'tool')?.content).toContain('Python 类型检查用 pyright');
      expect(on.out).toEqual({ text: '用 pyright。', toolMemoryIds: [middle.id] });
      expect(on.run.toolMemoryIds).toEqual([middle.id]);

      expectOk(await t.engine.call('settings.update', { patch: { 'memory.enable_agentic_search': false } }));
      const off = await turnWith();
      expect(off.sent).toHaveLength(1);
      expect(off.sent[0]?.tools).toBeUndefined();
      expect(off.run.toolMemoryIds).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
