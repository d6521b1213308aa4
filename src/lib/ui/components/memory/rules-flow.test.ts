import { describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { RulesState } from './rules-state.svelte';
import { engineDeps } from './test-deps';

async function setup() {
  const t = await engineDeps();
  const r = new RulesState(t.deps);
  await r.load();
  return { ...t, r };
}

describe('the Preferences tab against a real engine', () => {
  it('starts empty, then adds a confirmed rule at confidence 1.0', async () => {
    const { r, errors } = await setup();
    expect(r.loaded).toBe(true);
    expect(r.rules).toEqual([]);
    expect(await r.add('No exclamation marks in dialogue', 'style')).toEqual({ kind: 'saved' });
    expect(r.rules).toHaveLength(1);
    expect(r.rules[0]).toMatchObject({ rule: 'No exclamation marks in dialogue', confidence: 1, userConfirmed: true, scope: 'global' });
    expect(errors).toEqual([]);
  });

  it('refuses an empty rule at its field', async () => {
    const { r } = await setup();
    expect(await r.add('   ', 'style')).toEqual({ kind: 'invalid', errors: { rule: { kind: 'required' } } });
  });

  it('edits (marking the rule edited), and deletes for good', async () => {
    const { r, engine } = await setup();
    await r.add('Short sentences', 'pacing');
    const id = r.rules[0]!.id;
    expect(await r.update(id, 'Short sentences in action scenes', 'pacing')).toEqual({ kind: 'saved' });
    expect(r.rules[0]).toMatchObject({ rule: 'Short sentences in action scenes', userModified: true });
    expect(await r.update(id, 'Short sentences in action scenes', 'pacing')).toEqual({ kind: 'unchanged' });
    expect(await r.remove(id)).toBe(true);
    expect(r.rules).toEqual([]);
    expect(expectOk(await engine.call('rules.list', { includeDeleted: true }))[0]?.status).toBe('deleted');
  });

  it('switches to a project, adds and confirms there, and promotes to global', async () => {
    const { r, engine } = await setup();
    const project = expectOk(await engine.call('project.create', { name: 'Sci-fi short' }));
    await r.add('First person', 'style');
    await r.load();
    expect(r.projects.map((p) => p.name)).toEqual(['Sci-fi short']);

    await r.setScope({ scope: 'project', projectId: project.id });
    expect(r.rules).toEqual([]);
    await r.add('Third person omniscient', 'structure');
    expect(r.rules.map((x) => [x.rule, x.scope, x.projectId])).toEqual([['Third person omniscient', 'project', project.id]]);

    expect(await r.confirm(r.rules[0]!.id)).toBe(true);
    expect(await r.promote(r.rules[0]!.id)).toBe(true);
    expect(r.rules).toEqual([]);
    await r.setScope({ scope: 'global' });
    expect(r.rules.map((x) => x.rule).sort()).toEqual(['First person', 'Third person omniscient']);
  });

  it('falls back to global when the project shown was deleted elsewhere', async () => {
    const { r, engine } = await setup();
    const project = expectOk(await engine.call('project.create', { name: 'Gone soon' }));
    await r.setScope({ scope: 'project', projectId: project.id });
    expectOk(await engine.call('project.delete', { id: project.id }));
    await r.load();
    expect(r.scope).toEqual({ scope: 'global' });
  });
});
