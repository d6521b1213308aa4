/**
 * Seed 003 衰减分级 for learned rules (issue 19): a learned rule whose decay fell below 0.3 leaves the context
 * (L2), as a faded episode leaves recall — not only through the token budget. Rules the user wrote or confirmed,
 * and rules kept from the forgetting ledger, are exempt. Against the real engine with a fixed clock.
 */
import { describe, expect, it } from 'vitest';
import { decayScore } from '../../src/lib/domain/lifecycle/decay';
import { createTestEngine, expectOk, type TestEngine } from '../../src/lib/engine/testing';
import { chapter, l } from './learning-helpers';
import { DAY, learnedRule } from './lifecycle-helpers';

const build = (t: TestEngine, documentId: string) =>
  t.engine.call('context.build', { kind: 'skill', skillId: 'continue', documentId, message: '续写', selection: { before: '', text: '他推开门。', after: '' }, locale: 'zh-CN' });

describe('seed 003 decay tiers of learned rules in the context', () => {
  it('003 衰减分级 (rules): a learned rule below 0.3 leaves L2 while a confirmed, a user-written and a kept one stay; a reinforced rule comes back', async () => {
    const t = await createTestEngine();
    const { project, doc } = await chapter(t);
    learnedRule(t, { id: 'r-learned', rule: '偏好华丽辞藻', confidence: 0.8 });
    learnedRule(t, { id: 'r-confirmed', rule: '严格第一人称叙述', confidence: 0.8 });
    learnedRule(t, { id: 'r-kept', rule: '对白少用感叹号', confidence: 0.8, projectId: project.id });
    expectOk(await t.engine.call('rules.confirm', { id: 'r-confirmed' }));
    expectOk(await t.engine.call('rules.add', { rule: '动作场景偏好短句', category: 'pacing', scope: 'project', projectId: project.id }));
    expectOk(await t.engine.call('lifecycle.keep', { itemType: 'rule', itemId: 'r-kept' }));

    // Day 0: every rule is in.
    let l2 = l(expectOk(await build(t, doc.id)), 'L2').text;
    for (const rule of ['偏好华丽辞藻', '严格第一人称叙述', '对白少用感叹号', '动作场景偏好短句']) expect(l2).toContain(rule);

    // 10 days: decaying (0.3–0.7), still in — a lower tier, not out.
    t.clock.advance(10 * DAY);
    expect(decayScore({ createdAt: 0, lastRecalledAt: null, recallCount: 0, importance: 0.8 }, 10 * DAY)).toBeGreaterThan(0.3);
    expect(l(expectOk(await build(t, doc.id)), 'L2').text).toContain('偏好华丽辞藻');

    // 15 days without a change: the learned rule is below 0.3 and out of the context, before any clean-up ran.
    t.clock.advance(5 * DAY);
    expect(decayScore({ createdAt: 0, lastRecalledAt: null, recallCount: 0, importance: 0.8 }, 15 * DAY)).toBeLessThan(0.3);
    l2 = l(expectOk(await build(t, doc.id)), 'L2').text;
    expect(l2).not.toContain('偏好华丽辞藻');
    for (const rule of ['严格第一人称叙述', '对白少用感叹号', '动作场景偏好短句']) expect(l2).toContain(rule);
    // It is faded, not deleted: still listed in the Memory panel, and the clean-up notes it in the ledger.
    expect(expectOk(await t.engine.call('rules.list', {})).map((r) => r.id)).toContain('r-learned');
    expectOk(await t.engine.call('lifecycle.run', { phases: ['decay'] }));
    expect(expectOk(await t.engine.call('lifecycle.ledger', {})).items.map((i) => i.itemId)).toEqual(['r-learned']);

    // Reinforced (distillation or the user changing it moves its last change): active again, back in.
    t.driver.run("UPDATE semantic_rules SET updated_at = ? WHERE id = 'r-learned'", [t.clock.now()]);
    expect(l(expectOk(await build(t, doc.id)), 'L2').text).toContain('偏好华丽辞藻');
  });
});
