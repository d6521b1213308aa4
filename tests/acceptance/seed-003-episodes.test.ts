/**
 * Seed 003 on the real engine: the three memory layers in a skill run, the writing working memory (8K
 * budget, eviction, archive at session end), episodes recorded after every skill run with implicit
 * feedback, the undo as a delayed negative, and episode recall.
 */
import { describe, expect, it } from 'vitest';
import { SIGNAL_TABLE } from '../../src/lib/domain/episodes/signals';
import { testJobs } from '../../src/lib/engine/jobs/testing';
import { createTestEngine, expectOk } from '../../src/lib/engine/testing';
import { chapter, DIALOGUES, episodeOn, FIGHTS, l, LONG_TAKES, sent, SHORT_TAKES, skillRun } from './learning-helpers';

describe('seed 003 three-layer memory and the writing working memory', () => {
  it('003 三层记忆协作——续写打斗场景: working memory gives the chapter and the session’s intent, 3 past fight episodes are recalled, the rule is injected, all reach the AI', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t, { title: '第七章' });
    // Three earlier interactions in fight scenes, and two in dialogue.
    for (const [i, passage] of FIGHTS.slice(0, 3).entries()) {
      await episodeOn(t, { documentId: doc.id, passage, candidates: [SHORT_TAKES[i] as string, LONG_TAKES[i] as string], selectedIndex: 0 });
      t.clock.advance(60_000);
    }
    for (const passage of DIALOGUES.slice(0, 2)) await episodeOn(t, { documentId: doc.id, passage, skillId: 'polish', candidates: ['“嗯。”他说。'], selectedIndex: 0 });
    expectOk(await t.engine.call('rules.add', { rule: '动作场景偏好短句、快节奏', category: 'pacing', scope: 'project', projectId: project.id }));

    const fight = FIGHTS[3] as string;
    const r = await skillRun(t, { documentId: doc.id, passage: fight, before: FIGHTS.slice(0, 3).join('\n\n') + '\n\n', message: '打斗要紧凑，别拖沓', typed: true });
    // Layer 1, working memory (Immediate, L5): the chapter around the focus and this session's intent.
    const l5 = l(r, 'L5');
    expect(l5.items.map((i) => i.id)).toContain('working-memory:write');
    expect(l5.text).toContain('《第七章》');
    expect(l5.text).toContain('本次会话意图 · intent: 打斗要紧凑，别拖沓');
    // Layer 2, episodes (Retrieved, L4): the three past fight interactions, by scene type and similarity.
    const episodes = l(r, 'L4').items.filter((i) => i.id.startsWith('episode:'));
    expect(episodes).toHaveLength(3);
    const learning = expectOk(await t.engine.call('run.learning', { runId: r.runId }));
    expect(learning.sceneType).toBe('action');
    expect(learning.episodes.filter((e) => e.kept).every((e) => e.why.sceneMatch)).toBe(true);
    for (const e of episodes) expect(expectOk(await t.engine.call('episode.get', { id: e.id.slice('episode:'.length) })).sceneType).toBe('action');
    // Layer 3, semantic memory (Settings, L2).
    expect(l(r, 'L2').text).toContain('动作场景偏好短句、快节奏');
    // All three, integrated by the context engine, are what the AI receives.
    const prompt = sent(r);
    for (const part of ['动作场景偏好短句、快节奏', '情景 · episode', '打斗要紧凑，别拖沓', '《第七章》']) expect(prompt).toContain(part);
    // …and the provenance names all three kinds.
    const trace = expectOk(await t.engine.call('run.trace', { runId: r.runId }));
    expect(new Set(trace.memoryReferences.map((x) => x.type))).toEqual(new Set(['semantic', 'episode', 'working']));
    // A skill that asks for its surrounding text only (polish) gets the session's intents but not the
    // chapter beyond it (004 精准注入), nor episodes (it asks for no memories).
    const polish = await skillRun(t, { documentId: doc.id, passage: fight, skillId: 'polish', message: '润色' });
    expect(l(polish, 'L5').text).toContain('打斗要紧凑，别拖沓');
    expect(l(polish, 'L5').text).not.toContain('《第七章》');
    expect(l(polish, 'L4').items.some((i) => i.id.startsWith('episode:'))).toBe(false);
  });

  it('003 工作记忆容量超限时的淘汰: at 8K tokens the lowest importance leaves first — an old intent unrelated to the focus — and the editor is untouched', async () => {
    const t = await createTestEngine();
    const { doc } = await chapter(t);
    const unrelated = '把天气描写得更细腻一些，多写雨、雾和远山的颜色，让读者感到潮湿的空气和季节的变化。';
    await skillRun(t, { documentId: doc.id, passage: DIALOGUES[0] as string, message: unrelated.repeat(4), typed: true });
    t.clock.advance(20 * 60_000);
    // Fight intents pile up until the 8K budget is passed.
    for (let i = 0; i < 40; i++) {
      await skillRun(t, { documentId: doc.id, passage: FIGHTS[i % FIGHTS.length] as string, message: `第${i}次：刀光和拳脚的动作要写清楚，敌人躲开的方向也要交代，节奏紧凑。`.repeat(8), typed: true });
      t.clock.advance(10_000);
    }
    const wm = expectOk(await t.engine.call('writingMemory.get', { documentId: doc.id }));
    expect(wm.budget).toBe(8192);
    expect(wm.tokens).toBeLessThanOrEqual(8192);
    expect(wm.evicted.length).toBeGreaterThan(0);
    // Lowest importance first: the old weather intent (unrelated to the fight in focus) went before any fight intent.
    expect(wm.evicted[0]?.kind).toBe('intent');
    expect(wm.evicted[0]?.importance).toBe(Math.min(...wm.evicted.map((e) => e.importance)));
    expect(wm.entries.some((e) => e.preview.startsWith('把天气描写'))).toBe(false);
    expect(wm.entries.find((e) => e.kind === 'task')?.pinned).toBe(true);
    // Eviction happens in the worker; the chapter itself is unchanged and the next run builds normally.
    expect(expectOk(await t.engine.call('document.get', { id: doc.id })).content).toBe(FIGHTS.join('\n\n'));
    const next = await skillRun(t, { documentId: doc.id, passage: FIGHTS[0] as string });
    expect(l(next, 'L5').text).toContain('任务 · task');
  });

  it('003 会话结束时工作记忆归档: signals past their threshold become episodes, the rest are dropped, the memory is cleared', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    for (let i = 0; i < 3; i++) await skillRun(t, { documentId: doc.id, passage: FIGHTS[i] as string, message: '更紧凑一些', typed: i < 2 });
    await skillRun(t, { documentId: doc.id, passage: DIALOGUES[0] as string, skillId: 'polish', message: '润色' });
    expect(expectOk(await t.engine.call('writingMemory.get', { documentId: doc.id })).signals).toHaveLength(3);
    // The user switches chapter (the Write page ends the session).
    const ended = expectOk(await t.engine.call('writingMemory.end', { documentId: doc.id }));
    expect(ended).toMatchObject({ ended: [doc.id], dropped: 1 });
    const archived = expectOk(await t.engine.call('episode.list', { kind: 'session', projectId: project.id })).items;
    expect(archived.map((e) => [e.sceneType, e.skillUsed, e.uses, e.implicit, e.explicit])).toEqual(
      expect.arrayContaining([
        ['action', 'continue', 3, 'scene-skill-preference', null],
        ['action', 'continue', 2, 'scene-skill-preference', '更紧凑一些'],
      ]),
    );
    expect(archived).toHaveLength(2);
    expect(archived.every((e) => e.id && ended.archived.includes(e.id))).toBe(true);
    // The working memory is empty; ending again archives nothing twice.
    expect(await t.engine.call('writingMemory.get', { documentId: doc.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(expectOk(await t.engine.call('writingMemory.end', { documentId: doc.id }))).toEqual({ ended: [], archived: [], dropped: 0 });

    // A session nobody ended (the tab closed): after 30 idle minutes the jobs worker's sweep archives it.
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    for (let i = 0; i < 3; i++) await skillRun(t, { documentId: doc.id, passage: FIGHTS[i] as string, skillId: 'polish', message: '润色' });
    t.clock.advance(31 * 60_000);
    expect(await jobs.scheduler.run('writing-memory-sweep', 'periodic')).toMatchObject({ state: 'done', result: { ended: 1, archived: 1 } });
    expect(expectOk(await t.engine.call('episode.list', { kind: 'session', projectId: project.id })).total).toBe(3);
  });
});

describe('seed 003 episodes and implicit feedback', () => {
  it('003 AI 技能执行后自动记录情景: chapter 7, a fight, 3 candidates, B chosen with a 15 % edit → one episode, weak positive, persisted', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t, { title: '第七章' });
    const b = '他挥刀狠狠砍去。对方侧身避开。他又砍一刀';
    const final = '他挥刀猛地砍去。对方侧身避开。他又劈一刀';
    const { episode, feedbackEventId, run } = await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, candidates: ['甲', b, '丙'], selectedIndex: 1, finalText: final });
    expect(episode).toMatchObject({
      kind: 'skill-run',
      runId: run.runId,
      skillUsed: 'continue',
      sceneType: 'action',
      projectId: project.id,
      chapterId: doc.id,
      candidates: ['甲', b, '丙'],
      selectedIndex: 1,
      finalText: final,
      editDistance: 0.15,
      implicit: 'weak-positive',
      recallCount: 0,
      lastRecalledAt: null,
      compressed: false,
    });
    expect(episode.inputContext).toContain('他一拳砸向对方的脸');
    expect(SIGNAL_TABLE[episode.implicit].level).toBe('medium');
    // Persisted: in SQLite, with its 004 audit event.
    expect(expectOk(await t.engine.call('episode.get', { id: episode.id }))).toEqual(episode);
    expect(t.driver.get<{ n: number }>('SELECT COUNT(*) AS n FROM episodes WHERE id = ?', [episode.id])?.n).toBe(1);
    expect(expectOk(await t.engine.call('feedback.list', { runId: run.runId, limit: 5 }))).toMatchObject([{ id: feedbackEventId, action: 'partial', signal: 'weak-positive', editDistance: 0.15 }]);
    // No user text in the log.
    expect(JSON.stringify(t.log.lines)).not.toContain('砍');
  });

  it('003 用户撤销 AI 输出——延迟负反馈: the undo 30 s later makes the episode a delayed negative (highest weight) without erasing the acceptance, and distillation weighs it most', async () => {
    const t = await createTestEngine();
    const { doc } = await chapter(t);
    const { run } = await episodeOn(t, { documentId: doc.id, passage: FIGHTS[0] as string, skillId: 'polish', candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
    t.clock.advance(30_000);
    const undone = expectOk(await t.engine.call('episode.record', { runId: run.runId, undo: true }));
    expect(undone.episode).toMatchObject({ implicit: 'delayed-negative', firstSignal: 'strong-positive', selectedIndex: 0, finalText: SHORT_TAKES[0], valence: -1, importance: 1, undoneAt: t.clock.now() });
    expect(SIGNAL_TABLE['delayed-negative']).toMatchObject({ level: 'highest', weight: 1 });
    expect(expectOk(await t.engine.call('episode.list', {})).total).toBe(1);
    expect(expectOk(await t.engine.call('feedback.list', { runId: run.runId, limit: 5 })).map((e) => e.signal)).toEqual(['delayed-negative', 'strong-positive']);
    // Sent twice, it counts once.
    expectOk(await t.engine.call('episode.record', { runId: run.runId, undo: true }));
    expect(expectOk(await t.engine.call('feedback.list', { runId: run.runId, limit: 5 }))).toHaveLength(2);

    // "在后续语义记忆蒸馏中被重点考虑": six accepted short takes teach "short"; undoing three of them —
    // each undo weighs more than an acceptance — and the same evidence no longer does.
    const confidenceWith = async (undos: number) => {
      const u = await createTestEngine();
      const c = await chapter(u);
      for (let i = 0; i < 6; i++) {
        const e = await episodeOn(u, { documentId: c.doc.id, passage: FIGHTS[i % 5] as string, candidates: [LONG_TAKES[i % 3] as string, SHORT_TAKES[i % 3] as string], selectedIndex: 1 });
        if (i < undos) expectOk(await u.engine.call('episode.record', { runId: e.run.runId, undo: true }));
      }
      await testJobs({ engine: u.engine, clock: u.clock }).run('distill');
      const rule = expectOk(await u.engine.call('rules.list', { projectId: c.project.id })).find((r) => r.key === 'all.sentence-length');
      return rule?.basis[0]?.pole === 'short' ? rule.confidence : 0;
    };
    expect(await confidenceWith(0)).toBeGreaterThan(0.6);
    expect(await confidenceWith(3)).toBe(0);
  });

  it('003 情景记忆召回: chapter 15, a dialogue to continue → 3–5 related episodes by scene type + similarity, their recall count and time updated', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t, { title: '第十五章', content: DIALOGUES.join('\n\n') });
    const dialogueEpisodes = [];
    for (const passage of [...DIALOGUES, '“图书馆几点关门？”他问。\n“十点。”管理员说。', '“你去哪儿了？”\n“图书馆。”']) {
      dialogueEpisodes.push((await episodeOn(t, { documentId: doc.id, passage, candidates: ['“嗯。”她说。'], selectedIndex: 0 })).episode.id);
      t.clock.advance(3_600_000);
    }
    for (const passage of FIGHTS) await episodeOn(t, { documentId: doc.id, passage, candidates: [SHORT_TAKES[0] as string], selectedIndex: 0 });
    const text = '“你昨晚去图书馆了吗？”她问道。\n“去了。”他说。';
    const q = expectOk(await t.engine.call('episode.query', { projectId: project.id, sceneType: 'dialogue', text }));
    expect(q.items.length).toBeGreaterThanOrEqual(3);
    expect(q.items.length).toBeLessThanOrEqual(5);
    expect(q.items.every((i) => i.episode.sceneType === 'dialogue' && i.why.sceneMatch)).toBe(true);
    // Text similarity orders them: the library conversations first.
    expect(q.items[0]?.episode.inputContext).toContain('图书馆');
    expect(q.items[0]?.why.similarity).toBe(1);
    expect(q.items[0]?.why.matchedTerms.join('')).toContain('图书');
    expect(q.degraded).toBe(false);
    // A query reads; placing them in a context is what counts as recalled.
    const counts = async () => Object.fromEntries(expectOk(await t.engine.call('episode.list', { limit: 50 })).items.map((e) => [e.id, e.recallCount]));
    const before = await counts();
    expectOk(await t.engine.call('episode.query', { projectId: project.id, sceneType: 'dialogue', text }));
    expect(await counts()).toEqual(before);
    t.clock.advance(60_000);
    const r = await skillRun(t, { documentId: doc.id, passage: text });
    const kept = expectOk(await t.engine.call('run.learning', { runId: r.runId })).episodes.filter((e) => e.kept).map((e) => e.id);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const id of kept) {
      expect(dialogueEpisodes).toContain(id);
      expect(expectOk(await t.engine.call('episode.get', { id }))).toMatchObject({ recallCount: (before[id] ?? 0) + 1, lastRecalledAt: t.clock.now() });
    }
  });
});
