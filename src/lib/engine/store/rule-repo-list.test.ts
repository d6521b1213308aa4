/** Rule lists are read compactly (one JSON cell + the two REAL cells per rule): the same rules, value for value. */
import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../testing';
import { createRuleRepo } from './rule-repo';

describe('rule-repo lists', () => {
  it('list, activeFor and all give exactly what find gives per rule: exact confidences, nulls, JSON lists, an open conflict', async () => {
    const t = await createTestEngine();
    const project = expectOk(await t.engine.call('project.create', { name: 'p' }));
    const repo = createRuleRepo({ driver: t.driver, clock: t.clock, ids: (() => { let n = 0; return () => `r${++n}`; })() });
    const a = repo.insert({ rule: '对话偏好短句 "quoted" \\ back', category: 'style', scope: 'global', projectId: null, key: null, confidence: 1 / 3, source: 'learned', userConfirmed: false, supporting: ['e1', 'e2'], basis: [] });
    const b = repo.insert({ rule: 'first person', category: 'structure', scope: 'project', projectId: project.id, key: 'pov', confidence: 0.1 + 0.2, source: 'user', userConfirmed: true, contradicting: ['e3'] });
    const c = repo.insert({ rule: 'deleted one', category: 'pacing', scope: 'global', projectId: null, key: null, confidence: 0.5, source: 'learned', userConfirmed: false });
    repo.patch(c.id, { status: 'deleted' });
    t.driver.run('UPDATE semantic_rules SET penalty = ?, drifted_at = ? WHERE id = ?', [2 / 7, t.clock.now(), a.id]);
    t.driver.run('UPDATE semantic_rules SET pinned = 1 WHERE id = ?', [b.id]); // kept from the forgetting ledger
    t.driver.run(
      "INSERT INTO rule_conflicts (id, project_id, rule_a, rule_b, dimension, confidence_a, confidence_b, detected_at) VALUES ('k1', NULL, ?, ?, 'length', 0.6, 0.7, ?)",
      [a.id, b.id, t.clock.now()],
    );
    const byId = (id: string) => repo.find(id);
    expect(repo.list({ includeDeleted: false })).toEqual([byId(a.id), byId(b.id)]);
    expect(repo.list({ includeDeleted: true })).toEqual([byId(a.id), byId(b.id), byId(c.id)]);
    expect(repo.list({ includeDeleted: false, scope: 'project', projectId: project.id })).toEqual([byId(b.id)]);
    expect(repo.activeFor(project.id)).toEqual([byId(a.id), byId(b.id)]);
    expect(repo.activeFor(null)).toEqual([byId(a.id)]);
    expect(repo.all()).toEqual([byId(a.id), byId(b.id), byId(c.id)]);
    const [first] = repo.list({ includeDeleted: false });
    expect(first).toMatchObject({ confidence: 1 / 3, penalty: 2 / 7, supporting: ['e1', 'e2'], conflictId: 'k1', key: null, userConfirmed: false, rule: '对话偏好短句 "quoted" \\ back' });
    expect(repo.list({ includeDeleted: false })[1]).toMatchObject({ confidence: 0.1 + 0.2, contradicting: ['e3'], conflictId: 'k1', userConfirmed: true, driftedAt: null, pinned: true });
  });
});
