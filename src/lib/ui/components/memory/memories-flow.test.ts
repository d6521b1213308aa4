import { describe, expect, it } from 'vitest';
import { expectOk } from '../../../engine/testing';
import { toEditDraft } from './drafts';
import { summarizeHistory } from './history-diff';
import { MemoriesState } from './memories-state.svelte';
import { engineDeps } from './test-deps';

async function setup() {
  const t = await engineDeps();
  return { ...t, s: new MemoriesState(t.deps) };
}

describe('the Memories tab against a real engine', () => {
  it('creates, edits, shows the history, undoes and deletes a memory', async () => {
    const { s, engine, errors } = await setup();

    // Add memory: manual, user_stated, opened in the detail panel and listed.
    expect(await s.create({ content: 'I drink green tea every morning', category: 'preference', tagsText: 'drink, tea' })).toEqual({ kind: 'saved' });
    const id = s.selectedId!;
    expect(s.detail?.memory).toMatchObject({ content: 'I drink green tea every morning', source: 'user_stated', tags: ['drink', 'tea'], version: 1 });
    expect(s.items.map((m) => m.id)).toEqual([id]);
    expect(s.range).toEqual({ from: 1, to: 1, total: 1 });

    // Edit: content, value JSON, confidence.
    const draft = { ...toEditDraft(s.detail!.memory), content: 'I drink oolong tea every morning', valueText: '{"drink": "oolong"}', confidencePercent: 70 };
    expect(await s.update(draft)).toEqual({ kind: 'saved' });
    expect(s.detail?.memory).toMatchObject({ content: 'I drink oolong tea every morning', value: { drink: 'oolong' }, confidence: 0.7, version: 2 });
    expect(s.items[0]?.content).toBe('I drink oolong tea every morning');

    // History: newest first, the edit shows what changed and who did it.
    const [edit, created] = s.detail!.history;
    expect(created).toMatchObject({ action: 'create', actor: 'user', version: 1 });
    expect(edit).toMatchObject({ action: 'update', actor: 'user', version: 2 });
    const summary = summarizeHistory(edit!);
    expect(summary.kind === 'changed' && summary.changes.map((c) => c.field)).toEqual(['content', 'value', 'confidence']);
    expect(summary.kind === 'changed' && summary.changes[0]).toEqual({ field: 'content', before: 'I drink green tea every morning', after: 'I drink oolong tea every morning' });

    // Undo the edit: the memory says what it said before, as a new history entry.
    expect(await s.undo(id)).toMatchObject({ kind: 'restored', memoryId: id });
    expect(s.detail?.memory).toMatchObject({ content: 'I drink green tea every morning', confidence: 1, version: 3 });
    expect(s.detail?.history[0]).toMatchObject({ action: 'restore', reason: 'undo' });

    // Delete: permanent; the panel closes and the list is empty.
    expect(await s.remove(id)).toMatchObject({ deleted: true, id });
    expect(s.selectedId).toBeNull();
    expect(s.detail).toBeNull();
    expect(s.items).toEqual([]);
    expect(s.total).toBe(0);
    expect((await engine.call('memory.get', { id })).ok).toBe(false);
    expect(errors).toEqual([]);
  });

  it('restores an earlier version from the history', async () => {
    const { s } = await setup();
    await s.create({ content: 'Call me Lin', category: 'fact', tagsText: '' });
    await s.update({ ...toEditDraft(s.detail!.memory), content: 'Call me Wei' });
    await s.update({ ...toEditDraft(s.detail!.memory), content: 'Call me Lin Wei' });
    expect(await s.restore(s.selectedId!, 1)).toBe(true);
    expect(s.detail?.memory).toMatchObject({ content: 'Call me Lin', version: 4 });
    expect(s.detail?.history[0]).toMatchObject({ action: 'restore', reason: 'restore-version' });
  });

  it('undoing the creation removes the memory and closes it', async () => {
    const { s } = await setup();
    await s.create({ content: 'temporary', category: 'fact', tagsText: '' });
    const id = s.selectedId!;
    expect(await s.undo(id)).toMatchObject({ kind: 'deleted', memoryId: id });
    expect(s.selectedId).toBeNull();
    expect(s.total).toBe(0);
  });

  it('refuses a stale edit (CONFLICT) and shows the current memory instead', async () => {
    const { s, engine, errors } = await setup();
    await s.create({ content: 'I live in Beijing', category: 'fact', tagsText: '' });
    const stale = toEditDraft(s.detail!.memory);
    expectOk(await engine.call('memory.update', { id: s.selectedId!, content: 'I live in Shanghai' })); // another tab
    expect(await s.update({ ...stale, content: 'I live in Hangzhou' })).toEqual({ kind: 'conflict' });
    expect(s.detail?.memory.content).toBe('I live in Shanghai');
    expect(errors).toEqual([]);
    // Saving again applies the edit to the version now shown.
    expect(await s.update({ ...toEditDraft(s.detail!.memory), content: 'I live in Hangzhou' })).toEqual({ kind: 'saved' });
  });

  it('keeps an open edit on the version it began from when the view refreshes after a write elsewhere', async () => {
    const { s, engine } = await setup();
    await s.create({ content: 'I work at Acme', category: 'fact', tagsText: 'work' });
    const base = s.detail!.memory;
    const draft = { ...toEditDraft(base), tagsText: 'work, job' };
    expectOk(await engine.call('memory.update', { id: base.id, content: 'I work at Globex' })); // another tab
    await s.refresh(); // the change event
    expect(await s.update(draft, base)).toEqual({ kind: 'conflict' });
    expect(s.detail?.memory).toMatchObject({ content: 'I work at Globex', tags: ['work'] });
  });

  it('shows the engine refusing a field at that field', async () => {
    const { s, engine, errors } = await setup();
    expectOk(await engine.call('settings.update', { patch: { 'memory.atomic_content_max_length': 40 } }));
    const outcome = await s.create({ content: 'This memory is far longer than the forty characters allowed now', category: 'fact', tagsText: '' });
    expect(outcome.kind).toBe('invalid');
    expect(outcome.kind === 'invalid' && Object.keys(outcome.errors)).toEqual(['content']);
    expect(errors).toEqual([]);
  });

  it('searches, filters and pages the list, with the total', async () => {
    const { s, engine } = await setup();
    for (let i = 0; i < 23; i++) expectOk(await engine.call('memory.create', { content: `Fact number ${i} about trains`, category: 'fact' }));
    expectOk(await engine.call('memory.create', { content: 'I prefer window seats', category: 'preference' }));
    await s.load();
    expect(s.range).toEqual({ from: 1, to: 20, total: 24 });
    await s.goToPage(1);
    expect(s.range).toEqual({ from: 21, to: 24, total: 24 });
    s.filters.category = 'preference';
    await s.search();
    expect(s.page).toBe(0);
    expect(s.items.map((m) => m.content)).toEqual(['I prefer window seats']);
    s.filters.category = '';
    s.query = 'trains';
    await s.search();
    expect(s.total).toBe(23);
    expect(s.narrowed).toBe(true);
  });

  it('steps back a page when the last page empties', async () => {
    const { s, engine } = await setup();
    const ids = [];
    for (let i = 0; i < 21; i++) ids.push(expectOk(await engine.call('memory.create', { content: `note ${i}`, category: 'fact' })).id);
    await s.load();
    await s.goToPage(1);
    expect(s.items).toHaveLength(1);
    await s.remove(s.items[0]!.id);
    expect(s.page).toBe(0);
    expect(s.range).toEqual({ from: 1, to: 20, total: 20 });
  });

  it('opens a deep link to a memory that no longer exists as "missing", without an error notice', async () => {
    const { s, errors } = await setup();
    await s.select('m-gone');
    expect(s.missing).toBe(true);
    expect(s.detail).toBeNull();
    expect(errors).toEqual([]);
  });

  it('clears everything only through the confirmed call, and reports the counts', async () => {
    const { s, engine } = await setup();
    await s.create({ content: 'one', category: 'fact', tagsText: '' });
    await s.create({ content: 'two', category: 'fact', tagsText: '' });
    expectOk(await engine.call('profile.update', { content: 'Name: Lin' }));
    expect(await s.countAll()).toBe(2);
    expect(await s.clear(true)).toMatchObject({ memoriesDeleted: 2, historyDeleted: 2, profileVersionsDeleted: 1 });
    expect(s.total).toBe(0);
    expect(s.selectedId).toBeNull();
    expect(expectOk(await engine.call('profile.get', {})).content).toBe('');
  });

  it('explains retrieval for a test message', async () => {
    const { s } = await setup();
    await s.create({ content: 'I like oolong tea', category: 'preference', tagsText: '' });
    await s.create({ content: 'My cat is called Mochi', category: 'fact', tagsText: '' });
    await s.retrieve('What tea do I like?');
    const r = s.retrieval!;
    expect(r.preferenceQuery).toBe(true);
    expect(r.items[0]?.memory.content).toBe('I like oolong tea');
    expect(r.items[0]?.score.multipliers.preference).toBe(1.5);
    await s.retrieve('   ');
    expect(s.retrieval).toBeNull();
  });
});
