/**
 * Seed 003 "记忆面板", "记忆溯源" and "记忆隔离与作用域": the memory panel's states (rules and learning)
 * and the inspector against the real engine and the jobs worker's distillation, rendered as people see it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcError } from '../../src/lib/domain/errors';
import { testJobs } from '../../src/lib/engine/jobs/testing';
import type { Input } from '../../src/lib/engine/protocol/contract';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { i18n, t as tr } from '../../src/lib/ui/i18n/i18n.svelte';
import { InspectState } from '../../src/lib/ui/components/inspect/inspect-state.svelte';
import RunDetail from '../../src/lib/ui/components/inspect/run-detail.svelte';
import { LearningState } from '../../src/lib/ui/components/memory/learning-state.svelte';
import RulesPanel from '../../src/lib/ui/components/memory/rules-panel.svelte';
import { RulesState } from '../../src/lib/ui/components/memory/rules-state.svelte';
import type { StateDeps } from '../../src/lib/ui/components/memory/state-deps';
import { renderHtml, textOf } from '../../src/lib/ui/components/settings/test-render';
import { chapter, FIGHTS, l, LONG_TAKES, SHORT_TAKES, skillRun } from './learning-helpers';

afterEach(() => i18n.setLocale('en'));

const FORMAL = '吾等遂行，亦无他事矣。其为人也，乃知之矣，然则何以为之乎者也。';
const COLLOQUIAL = '咱们走吧，啥事儿都没有啊，别担心嘛。';
const ORNATE = '金色的阳光静静地洒在碧绿的湖面上，微微的风轻轻地吹过，远处的山峦仿佛浸在淡淡的水墨里。';
const PLAIN = '阳光照在湖上。风吹过。远处是山。';

/** The memory panel's states on a test engine, with the jobs worker's distillation behind "update preferences". */
async function panel(t?: TestEngine) {
  const e = t ?? (await createTestEngine());
  const errors: IpcError[] = [];
  const jobs = testJobs({ engine: e.engine, clock: e.clock });
  const deps: StateDeps = { engine: () => e.engine, onError: (err) => void errors.push(err) };
  const rules = new RulesState(deps);
  const learning = new LearningState({ ...deps, jobs }, () => rules.scope);
  const reload = async () => {
    await rules.load();
    await learning.load();
  };
  const render = () => renderHtml(RulesPanel, { state: rules, learning, now: e.clock.now() });
  return { t: e, jobs, rules, learning, reload, render, errors };
}

async function record(t: TestEngine, opts: { projectId: string; documentId: string; passage: string; skillId?: string; candidates: string[]; selectedIndex: number }) {
  const input: Input<'episode.record'> = { skillId: opts.skillId ?? 'polish', projectId: opts.projectId, documentId: opts.documentId, input: opts.passage, candidates: opts.candidates, selectedIndex: opts.selectedIndex };
  return expectOk(await t.engine.call('episode.record', input)).episode;
}

describe('seed 003 memory panel', () => {
  it('003 用户确认 AI 学到的偏好: a learned, unconfirmed rule shown with its confidence; confirmed, it is no longer overwritten by distillation', async () => {
    const p = await panel();
    const { project, doc } = await chapter(p.t);
    for (let i = 0; i < 8; i++) await record(p.t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, skillId: 'continue', candidates: [LONG_TAKES[i % 3] as string, SHORT_TAKES[i % 3] as string], selectedIndex: 1 });
    await p.rules.setScope({ scope: 'project', projectId: project.id });
    await p.learning.updatePreferences();
    await p.reload();
    const rule = p.rules.rules.find((r) => r.rule.includes('偏好短句'));
    expect(rule).toMatchObject({ userConfirmed: false, source: 'learned' });
    const html = p.render();
    expect(html).toContain(`data-id="${rule?.id}"`);
    expect(textOf(html)).toContain(`Confidence ${Math.round((rule?.confidence ?? 0) * 100)}%`);
    expect(html).toContain('data-testid="rule-confirm"');

    expect(await p.rules.confirm(rule?.id as string)).toBe(true);
    const confirmed = p.rules.rules.find((r) => r.id === rule?.id);
    expect(confirmed?.userConfirmed).toBe(true);
    // Whatever the episodes say now, distillation leaves a confirmed rule as the user confirmed it.
    for (let i = 0; i < 12; i++) await record(p.t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, skillId: 'continue', candidates: [SHORT_TAKES[i % 3] as string, LONG_TAKES[i % 3] as string], selectedIndex: 1 });
    await p.learning.updatePreferences();
    await p.reload();
    expect(p.rules.rules.find((r) => r.id === rule?.id)).toEqual(confirmed);
    const history = expectOk(await p.t.engine.call('rules.history', { ruleId: rule?.id }));
    expect(history.items.map((c) => c.action)).toEqual(['confirmed', 'created']);
  });

  it('003 用户手动添加偏好规则: "所有角色对白不使用感叹号" through memory:semantic:add — confidence 1.0, confirmed, in the very next run’s settings layer', async () => {
    const p = await panel();
    const { project, doc } = await chapter(p.t);
    await p.reload();
    expect(await p.rules.add('所有角色对白不使用感叹号', 'style')).toEqual({ kind: 'saved' });
    expect(p.rules.rules[0]).toMatchObject({ rule: '所有角色对白不使用感叹号', confidence: 1, userConfirmed: true, source: 'user', scope: 'global' });
    const r = await skillRun(p.t, { documentId: doc.id, passage: FIGHTS[0] as string });
    expect(l(r, 'L2').text).toContain('- 所有角色对白不使用感叹号（置信度: 1.00，用户已确认）');
    void project;
  });

  it('003 用户删除错误偏好: a wrongly learned "文言文" rule is deleted through memory:semantic:delete; its episodes count against it and it is never distilled again', async () => {
    const p = await panel();
    const a = await chapter(p.t, { project: '甲' });
    const b = await chapter(p.t, { project: '乙' });
    const support: string[] = [];
    for (let i = 0; i < 6; i++) support.push((await record(p.t, { projectId: a.project.id, documentId: a.doc.id, passage: COLLOQUIAL, candidates: [COLLOQUIAL, FORMAL], selectedIndex: 1 })).id);
    await p.rules.setScope({ scope: 'project', projectId: a.project.id });
    await p.learning.updatePreferences();
    await p.reload();
    const wrong = p.rules.rules.find((r) => r.key === 'all.register');
    expect(wrong?.rule).toContain('书面、典雅的语气');
    expect(await p.rules.remove(wrong?.id as string)).toBe(true);
    expect(expectOk(await p.t.engine.call('rules.list', { includeDeleted: true })).find((r) => r.id === wrong?.id)?.status).toBe('deleted');
    // 003 "支撑该规则的情景记忆标记为负向信号".
    for (const id of support) {
      expect(JSON.parse(p.t.driver.get<{ negated: string }>('SELECT negated FROM episodes WHERE id = ?', [id])?.negated ?? '[]')).toEqual([{ pattern: 'all.register', pole: 'formal' }]);
    }
    // More of the same in this project and in another: neither this project nor the global scope learns it back.
    for (let i = 0; i < 6; i++) await record(p.t, { projectId: a.project.id, documentId: a.doc.id, passage: COLLOQUIAL, candidates: [COLLOQUIAL, FORMAL], selectedIndex: 1 });
    for (let i = 0; i < 3; i++) await record(p.t, { projectId: b.project.id, documentId: b.doc.id, passage: COLLOQUIAL, candidates: [COLLOQUIAL, FORMAL], selectedIndex: 1 });
    await p.learning.updatePreferences();
    const all = expectOk(await p.t.engine.call('rules.list', {}));
    expect(all.filter((r) => r.key === 'all.register' && r.projectId === a.project.id)).toEqual([]);
    expect(all.filter((r) => r.key === 'all.register' && r.scope === 'global')).toEqual([]);
  });

  it('003 用户暂停学习: paused, new interactions are still recorded but nothing is distilled, the panel shows "学习已暂停" on --color-warning; resumed, learning goes on', async () => {
    const p = await panel();
    const { project, doc } = await chapter(p.t);
    await p.reload();
    expect(await p.learning.setPaused(true)).toBe(true);
    expect(p.learning.paused).toBe(true);
    i18n.setLocale('zh-CN');
    const html = p.render();
    expect(html).toMatch(/<div class="paused" role="status" data-testid="learning-paused-badge"><strong>学习已暂停<\/strong>/);
    expect(html).toMatch(/<button type="button" class="primary" disabled[^>]*data-testid="learning-update"/);
    expect(html).toContain('data-testid="learning-resume"');
    for (let i = 0; i < 6; i++) await record(p.t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i % 5] as string, skillId: 'continue', candidates: [LONG_TAKES[i % 3] as string, SHORT_TAKES[i % 3] as string], selectedIndex: 1 });
    expect(expectOk(await p.t.engine.call('episode.list', {})).total).toBe(6);
    expect(await p.jobs.run('distill')).toMatchObject({ result: { skipped: 'paused' } });
    expect(await p.jobs.scheduler.run('distill', 'idle')).toMatchObject({ state: 'done' });
    expect(expectOk(await p.t.engine.call('rules.list', {}))).toEqual([]);

    expect(await p.learning.setPaused(false)).toBe(true);
    expect(p.render()).not.toContain('learning-paused-badge');
    await p.learning.updatePreferences();
    expect(expectOk(await p.t.engine.call('rules.list', { projectId: project.id })).length).toBeGreaterThan(0);
  });

  it('003 记忆面板空状态: a new user or project sees the icon, "AI 正在学习你的写作偏好，使用越多越精准" and one way to add a rule', async () => {
    const p = await panel();
    const { project } = await chapter(p.t, { project: '新项目' });
    await p.rules.setScope({ scope: 'project', projectId: project.id });
    await p.learning.load();
    i18n.setLocale('zh-CN');
    const html = p.render();
    expect(html).toContain('data-testid="rules-empty"');
    expect(html).toContain('<svg');
    expect(textOf(html)).toContain('AI 正在学习你的写作偏好，使用越多越精准');
    expect(html.match(/data-testid="rule-add"/g)).toHaveLength(1);
    expect(textOf(html)).toContain('已积累 0 条交互记录 · 尚未更新');
  });

  it('003 用户执行项目级清除: "清除本项目记忆" and its confirmation remove 实验小说’s episodes and rules; global memory and other projects stay', async () => {
    const p = await panel();
    const novel = await chapter(p.t, { project: '实验小说' });
    const other = await chapter(p.t, { project: '另一个项目' });
    for (let i = 0; i < 6; i++) await record(p.t, { projectId: novel.project.id, documentId: novel.doc.id, passage: FIGHTS[i % 5] as string, skillId: 'continue', candidates: [LONG_TAKES[i % 3] as string, SHORT_TAKES[i % 3] as string], selectedIndex: 1 });
    await record(p.t, { projectId: other.project.id, documentId: other.doc.id, passage: FIGHTS[0] as string, candidates: [PLAIN], selectedIndex: 0 });
    expectOk(await p.t.engine.call('rules.add', { rule: '对白要口语化', scope: 'project', projectId: novel.project.id }));
    expectOk(await p.t.engine.call('rules.add', { rule: '章节开头要有悬念', scope: 'project', projectId: other.project.id }));
    expectOk(await p.t.engine.call('rules.add', { rule: '偏好第一人称' }));
    await p.rules.setScope({ scope: 'project', projectId: novel.project.id });
    await p.learning.updatePreferences();
    await p.reload();
    i18n.setLocale('zh-CN');
    const html = p.render();
    expect(html).toContain('data-testid="project-memory-clear"');
    expect(textOf(html)).toContain('清除本项目记忆');
    // The confirmation is the app's one dialog (clear-project-flow.test.ts), not one of the panel's own.
    expect(html).not.toContain('<dialog');
    // Unconfirmed, nothing happens.
    expect(await p.t.engine.call('memory.clearProject', { projectId: novel.project.id })).toMatchObject({ ok: false, error: { code: 'MEMORY_CLEAR_CONFIRM_REQUIRED' } });
    expect(expectOk(await p.t.engine.call('episode.list', { projectId: novel.project.id })).total).toBe(6);
    const globalBefore = expectOk(await p.t.engine.call('rules.list', { scope: 'global' }));
    expect(globalBefore.map((r) => r.rule)).toContain('偏好第一人称');

    const report = await p.learning.clearProject(novel.project.id);
    expect(report).toMatchObject({ episodes: 6 });
    expect(report?.rules).toBeGreaterThan(1);
    expect(expectOk(await p.t.engine.call('episode.list', { projectId: novel.project.id })).total).toBe(0);
    expect(expectOk(await p.t.engine.call('rules.list', { scope: 'project', projectId: novel.project.id })).filter((r) => r.scope === 'project')).toEqual([]);
    expect(expectOk(await p.t.engine.call('rules.history', { projectId: novel.project.id })).items.filter((c) => c.projectId === novel.project.id)).toEqual([]);
    // Global memory and the other project are untouched.
    expect(expectOk(await p.t.engine.call('rules.list', { scope: 'global' }))).toEqual(globalBefore);
    expect(expectOk(await p.t.engine.call('rules.list', { projectId: other.project.id })).map((r) => r.rule)).toContain('章节开头要有悬念');
    expect(expectOk(await p.t.engine.call('episode.list', { projectId: other.project.id })).total).toBe(1);
    // The notice the page shows.
    expect(tr('learning:clear.done', { name: '实验小说' })).toBe('已清除项目“实验小说”的记忆');
  });
});

describe('seed 003 memory provenance', () => {
  it('003 用户查看 AI 输出的记忆溯源: "为什么这样写？" lists the semantic rule, the episodes and the working memory, each with its weight', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t, { title: '第七章' });
    for (let i = 0; i < 3; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: FIGHTS[i] as string, skillId: 'continue', candidates: [SHORT_TAKES[i] as string], selectedIndex: 0 });
    expectOk(await t.engine.call('rules.add', { rule: '动作场景偏好短句', category: 'pacing', scope: 'project', projectId: project.id }));
    const r = await skillRun(t, { documentId: doc.id, passage: FIGHTS[3] as string, message: '打斗要紧凑', typed: true });
    const trace = expectOk(await t.engine.call('run.trace', { runId: r.runId }));
    const byType = (type: string) => trace.memoryReferences.filter((x) => x.type === type);
    expect(byType('semantic')).toHaveLength(1);
    expect(byType('episode')).toHaveLength(3);
    expect(byType('working')).toEqual([expect.objectContaining({ id: 'working-memory:write', layer: 'L5' })]);
    expect(trace.memoryReferences.reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 2);
    // The inspector shows it grouped, and the writing memory with why each episode was chosen.
    const inspector = new InspectState({ engine: t.engine });
    await inspector.open(r.runId);
    const html = renderHtml(RunDetail, { inspector });
    const text = textOf(html);
    for (const part of ['Preferences', 'Episodes', 'Working memory', 'Writing memory', 'same scene type', 'Scene type of the passage: Action']) expect(text).toContain(part);
    expect(html.match(/data-testid="recalled-episode"/g)).toHaveLength(3);
    expect(html.match(/data-testid="working-memory-entry"/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('003 用户反馈溯源判断有误: "判断有误" on the "偏好华丽辞藻" rule lowers it, becomes an episode that counts against it, and stays lowered through later distillation', async () => {
    const t = await createTestEngine();
    const jobs = testJobs({ engine: t.engine, clock: t.clock });
    const { project, doc } = await chapter(t, { content: ORNATE });
    for (let i = 0; i < 8; i++) await record(t, { projectId: project.id, documentId: doc.id, passage: ORNATE, candidates: [PLAIN, ORNATE], selectedIndex: 1 });
    await jobs.run('distill');
    const rule = expectOk(await t.engine.call('rules.list', { projectId: project.id })).find((r) => r.key === 'all.ornate');
    expect(rule?.rule).toContain('偏好华丽辞藻');
    const r = await skillRun(t, { documentId: doc.id, passage: ORNATE, skillId: 'polish', message: '润色' });
    const inspector = new InspectState({ engine: t.engine });
    await inspector.open(r.runId);
    await inspector.verdict('incorrect', `preference:${rule?.id}`);
    expect(inspector.trace?.verdict).toBe('incorrect');
    expect(inspector.lastVerdictRule?.confidence).toBe(Math.round(((rule?.confidence ?? 0) - 0.1) * 100) / 100);
    const verdict = expectOk(await t.engine.call('episode.list', { kind: 'verdict' })).items[0];
    expect(verdict).toMatchObject({ implicit: 'verdict-negative', projectId: project.id });
    // Distilled again on the same evidence (plus the verdict), the rule stays lowered.
    await jobs.run('distill');
    const after = expectOk(await t.engine.call('rules.list', { projectId: project.id })).find((r2) => r2.id === rule?.id);
    expect(after?.penalty).toBe(0.1);
    expect(after?.confidence).toBeLessThanOrEqual(Math.round(((rule?.confidence ?? 0) - 0.1) * 100) / 100);
    expect(after?.contradicting).toContain(verdict?.id);
  });
});

describe('seed 003 memory scopes', () => {
  it('003 项目级记忆覆盖全局记忆 (rules without keys): "使用第三人称全知" in 科幻短篇 masks the global "偏好第一人称" there, not elsewhere', async () => {
    const t = await createTestEngine();
    const sf = await chapter(t, { project: '科幻短篇' });
    const other = await chapter(t, { project: '散文集' });
    expectOk(await t.engine.call('rules.add', { rule: '偏好第一人称' }));
    const project = expectOk(await t.engine.call('rules.add', { rule: '使用第三人称全知', scope: 'project', projectId: sf.project.id }));
    const inSf = await skillRun(t, { documentId: sf.doc.id, passage: FIGHTS[0] as string });
    expect(l(inSf, 'L2').text).toContain('使用第三人称全知');
    expect(l(inSf, 'L2').text).not.toContain('偏好第一人称');
    expect(l(inSf, 'L2').cut).toEqual([expect.objectContaining({ reason: 'masked' })]);
    const elsewhere = await skillRun(t, { documentId: other.doc.id, passage: FIGHTS[0] as string });
    expect(l(elsewhere, 'L2').text).toContain('偏好第一人称');
    // Scope overlap is not a direct contradiction: nothing asks the user.
    expect(expectOk(await t.engine.call('rules.conflicts', {}))).toEqual([]);
    void project;
  });

  it('003 用户将项目级规则提升为全局: "对白避免感叹号" goes from one project to every project through memory:promote', async () => {
    const p = await panel();
    const a = await chapter(p.t, { project: '甲' });
    const b = await chapter(p.t, { project: '乙' });
    await p.rules.setScope({ scope: 'project', projectId: a.project.id });
    await p.rules.add('对白避免感叹号', 'style');
    const id = p.rules.rules[0]?.id as string;
    expect(p.render()).toContain('data-testid="rule-promote"');
    expect(await p.rules.promote(id)).toBe(true);
    expect(expectOk(await p.t.engine.call('rules.list', { scope: 'global' }))).toEqual([expect.objectContaining({ id, scope: 'global', projectId: null })]);
    const inB = await skillRun(p.t, { documentId: b.doc.id, passage: FIGHTS[0] as string });
    expect(l(inB, 'L2').text).toContain('对白避免感叹号');
    expect(expectOk(await p.t.engine.call('rules.history', { ruleId: id })).items[0]?.action).toBe('promoted');
  });
});
