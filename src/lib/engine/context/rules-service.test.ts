import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk, type TestEngine } from '../testing';

const l2 = async (t: TestEngine, projectId?: string) => {
  // A Chinese message: the prompt (and so L2's 003 line format) is in Chinese (issue 15).
  const r = expectOk(await t.engine.call('context.build', { kind: 'chat', message: '你好', locale: 'en', ...(projectId ? { projectId } : {}) }));
  return r.layers.find((l) => l.id === 'L2') as (typeof r.layers)[number];
};

describe('semantic rules (003 memory panel)', () => {
  it('add, edit, confirm, delete: each change shows in the next run’s L2', async () => {
    const t = await createTestEngine();
    const rule = expectOk(await t.engine.call('rules.add', { rule: '偏好华丽辞藻', category: 'vocabulary', key: 'style.diction' }));
    expect(rule).toMatchObject({ confidence: 1, userConfirmed: true, userModified: false, version: 1, source: 'user', scope: 'global' });
    expect(await t.engine.call('rules.add', { rule: '别的', key: 'style.diction' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await t.engine.call('rules.add', { rule: 'x', scope: 'project' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } });
    const edited = expectOk(await t.engine.call('rules.update', { id: rule.id, rule: '偏好简洁风格' }));
    expect(edited).toMatchObject({ rule: '偏好简洁风格', userModified: true, version: 2 });
    expect(expectOk(await t.engine.call('rules.update', { id: rule.id, rule: '偏好简洁风格' })).version).toBe(2);
    expect((await l2(t)).text).toContain('- 偏好简洁风格（置信度: 1.00，用户已确认）');
    expectOk(await t.engine.call('rules.delete', { id: rule.id }));
    expect((await l2(t)).status).toBe('empty');
    expect(expectOk(await t.engine.call('rules.list', {}))).toEqual([]);
    expect(expectOk(await t.engine.call('rules.list', { includeDeleted: true }))[0]).toMatchObject({ id: rule.id, status: 'deleted', key: 'style.diction' });
    expect(await t.engine.call('rules.confirm', { id: rule.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('003 项目级记忆覆盖全局记忆 and 用户将项目级规则提升为全局', async () => {
    const t = await createTestEngine();
    const p = expectOk(await t.engine.call('project.create', { name: '科幻短篇' }));
    const global = expectOk(await t.engine.call('rules.add', { rule: '偏好第一人称', key: 'narrative.pov' }));
    const local = expectOk(await t.engine.call('rules.add', { rule: '使用第三人称全知', key: 'narrative.pov', scope: 'project', projectId: p.id }));
    const inProject = await l2(t, p.id);
    expect(inProject.text).toContain('使用第三人称全知（置信度: 1.00，用户已确认，项目级）');
    expect(inProject.text).not.toContain('偏好第一人称');
    expect(inProject.cut).toContainEqual(expect.objectContaining({ itemId: `preference:${global.id}`, reason: 'masked' }));
    expect((await l2(t)).text).toContain('偏好第一人称');
    expect(await t.engine.call('rules.promote', { id: local.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    const dialog = expectOk(await t.engine.call('rules.add', { rule: '对白避免感叹号', scope: 'project', projectId: p.id }));
    expect(expectOk(await t.engine.call('rules.promote', { id: dialog.id }))).toMatchObject({ scope: 'global', projectId: null });
    expect((await l2(t)).text).toContain('对白避免感叹号');
    expect(await t.engine.call('rules.promote', { id: dialog.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });

  it('deleting a project takes its documents, rules and runs; its conversations stay', async () => {
    const t = await createTestEngine();
    const p = expectOk(await t.engine.call('project.create', { name: 'P' }));
    const s = expectOk(await t.engine.call('session.create', { projectId: p.id }));
    const d = expectOk(await t.engine.call('document.create', { projectId: p.id, title: 'Ch 1', content: 'Once.' }));
    expect(expectOk(await t.engine.call('document.update', { id: d.id, content: 'Once upon a time.' })).content).toBe('Once upon a time.');
    expect(expectOk(await t.engine.call('document.list', { projectId: p.id }))).toEqual([expect.objectContaining({ id: d.id, chars: 17 })]);
    expectOk(await t.engine.call('rules.add', { rule: 'r', scope: 'project', projectId: p.id }));
    expectOk(await t.engine.call('projectFile.write', { projectId: p.id, path: '.engram/world/a.md', content: 'A' }));
    expectOk(await t.engine.call('context.build', { kind: 'skill', skillId: 'polish', documentId: d.id, message: 'm', locale: 'en' }));
    expectOk(await t.engine.call('project.delete', { id: p.id }));
    const count = (table: string) => t.driver.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n;
    expect([count('documents'), count('semantic_rules'), count('context_runs'), count('projects')]).toEqual([0, 0, 0, 0]);
    expect(expectOk(await t.engine.call('session.get', { id: s.id })).projectId).toBeNull();
    await Promise.resolve();
    expect(await t.files.list(p.id)).toEqual([]);
    expect(await t.engine.call('document.get', { id: d.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
