import { describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { ProfileState } from './profile-state.svelte';
import { engineDeps } from './test-deps';

async function setup() {
  const t = await engineDeps();
  const p = new ProfileState(t.deps);
  await p.load();
  return { ...t, p };
}

describe('the Profile tab against a real engine', () => {
  it('saves versions, lists them with their author, and undoes the last one', async () => {
    const { p, errors } = await setup();
    expect(p.base).toMatchObject({ content: '', version: 0, enabled: true });
    p.draft = 'Name: Lin';
    expect(await p.save()).toEqual({ kind: 'saved' });
    p.draft = 'Name: Lin\nAnswers: short';
    expect(await p.save()).toEqual({ kind: 'saved' });
    expect(p.base).toMatchObject({ content: 'Name: Lin\nAnswers: short', version: 2, actor: 'user' });
    expect(p.history.map((v) => [v.version, v.actor, v.reason])).toEqual([
      [2, 'user', 'edit'],
      [1, 'user', 'edit'],
    ]);

    expect(await p.undo()).toBe(2);
    expect(p.draft).toBe('Name: Lin');
    expect(p.history[0]).toMatchObject({ version: 3, reason: 'undo', restores: 1 });
    expect(errors).toEqual([]);
  });

  it('does not save an unchanged profile', async () => {
    const { p, engine } = await setup();
    expect(await p.save()).toEqual({ kind: 'unchanged' });
    expect(expectOk(await engine.call('profile.history', {})).total).toBe(0);
  });

  it('shows the other text on a conflict and lets the person keep theirs or mine', async () => {
    const { p, engine, errors } = await setup();
    p.draft = 'Name: Lin';
    await p.save();
    p.draft = 'Name: Lin Wei';
    expectOk(await engine.call('profile.update', { content: 'Name: Lin\nCity: Hangzhou', expectedVersion: 1 })); // learned meanwhile
    expect(await p.save()).toEqual({ kind: 'conflict' });
    expect(p.theirs?.content).toBe('Name: Lin\nCity: Hangzhou');
    expect(p.draft).toBe('Name: Lin Wei');
    expect(errors).toEqual([]);

    expect(await p.keepMine()).toEqual({ kind: 'saved' });
    expect(p.theirs).toBeNull();
    expect(expectOk(await engine.call('profile.get', {}))).toMatchObject({ content: 'Name: Lin Wei', version: 3 });
  });

  it('takes the stored text after a conflict', async () => {
    const { p, engine } = await setup();
    p.draft = 'mine';
    expectOk(await engine.call('profile.update', { content: 'theirs' }));
    expect(await p.save()).toEqual({ kind: 'conflict' });
    p.takeTheirs();
    expect(p.draft).toBe('theirs');
    expect(p.dirty).toBe(false);
  });

  it('keeps an unsaved edit when the profile is re-read after a write elsewhere', async () => {
    const { p, engine } = await setup();
    p.draft = 'typing…';
    expectOk(await engine.call('settings.update', { patch: { 'memory.enable_user_profile': false } }));
    await p.load();
    expect(p.draft).toBe('typing…');
    expect(p.base?.enabled).toBe(false);
  });

  it('does not let a refresh during an edit overwrite what was learned meanwhile', async () => {
    const { p, engine } = await setup();
    p.draft = 'Name: Lin';
    await p.save();
    p.draft = 'Name: Lin Wei';
    expectOk(await engine.call('profile.update', { content: 'Name: Lin\nCity: Hangzhou' })); // learned
    await p.load(); // the change event
    expect(p.draft).toBe('Name: Lin Wei');
    expect(await p.save()).toEqual({ kind: 'conflict' });
    expect(p.theirs?.content).toBe('Name: Lin\nCity: Hangzhou');
  });

  it('pages through a long history', async () => {
    const { p, engine } = await setup();
    for (let i = 1; i <= 25; i++) expectOk(await engine.call('profile.update', { content: `v${i}` }));
    await p.load();
    expect(p.history).toHaveLength(20);
    expect(p.historyTotal).toBe(25);
    await p.loadMoreHistory();
    expect(p.history.map((v) => v.version)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
  });

  it('"more" is not lost to a load that comes while it reads (a change event)', async () => {
    const { p, engine } = await setup();
    for (let i = 1; i <= 25; i++) expectOk(await engine.call('profile.update', { content: `v${i}` }));
    await p.load();
    expect(p.history).toHaveLength(20);
    await Promise.all([p.loadMoreHistory(), p.load()]);
    expect(p.history.map((v) => v.version)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
  });
});
