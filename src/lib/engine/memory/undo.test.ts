import { describe, expect, it } from 'vitest';
import { createTestEngine } from '../testing';
import { createMemoryRepo, type NewMemory } from '../store/memory-repo';
import { createMemoryUndo } from './undo';

const coffee: NewMemory = {
  scope: 'global',
  projectId: null,
  sessionId: null,
  messageId: null,
  category: 'preference',
  key: 'preference.food.coffee',
  value: { stance: 'like' },
  content: 'I like coffee',
  tags: [],
  confidence: 0.9,
  source: 'user_stated',
  language: 'en',
};

async function setup() {
  const t = await createTestEngine();
  const memories = createMemoryRepo(t.engine.env);
  return { t, memories, undo: createMemoryUndo({ memories }) };
}

describe('memory undo (the chat’s "remembered … [undo]")', () => {
  it('undo of a create deletes the memory', async () => {
    const { memories, undo } = await setup();
    const m = memories.insert(coffee, { actor: 'extractor' });
    expect(undo.undo(m.id)).toEqual({ kind: 'deleted', memoryId: m.id, restored: [] });
    expect(memories.find(m.id)).toBeUndefined();
  });

  it('undo of a superseding create brings back what it replaced', async () => {
    const { memories, undo } = await setup();
    const old = memories.insert(coffee, { actor: 'extractor' });
    const next = memories.insert({ ...coffee, value: { stance: 'dislike' }, content: 'I hate coffee' }, { actor: 'extractor' });
    memories.change(old.id, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor: 'extractor' });
    expect(undo.undo(next.id)).toEqual({ kind: 'deleted', memoryId: next.id, restored: [old.id] });
    expect(memories.mustFind(old.id)).toMatchObject({ status: 'active', supersededBy: null });
    expect(memories.lastChange(old.id)).toMatchObject({ action: 'restore', reason: 'undo' });
  });

  it('undo of an update restores the text before it, and can itself be undone', async () => {
    const { memories, undo } = await setup();
    const m = memories.insert(coffee, { actor: 'extractor' });
    memories.change(m.id, { content: 'I love coffee', confidence: 1 }, { action: 'update', actor: 'user' });
    const first = undo.undo(m.id);
    expect(first).toMatchObject({ kind: 'restored', memory: { content: 'I like coffee', confidence: 0.9, version: 3 } });
    expect(undo.undo(m.id)).toMatchObject({ kind: 'restored', memory: { content: 'I love coffee', version: 4 } });
  });

  it('undo on the superseded memory swaps it back with its successor', async () => {
    const { memories, undo } = await setup();
    const old = memories.insert(coffee, { actor: 'extractor' });
    const next = memories.insert({ ...coffee, content: 'I hate coffee' }, { actor: 'extractor' });
    memories.change(old.id, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor: 'extractor' });
    expect(undo.undo(old.id)).toMatchObject({ kind: 'restored', memory: { status: 'active' }, alsoChanged: [next.id] });
    expect(memories.mustFind(next.id)).toMatchObject({ status: 'superseded', supersededBy: old.id });
  });

  it('undo of a withdrawal ("I no longer …") makes the fact current again', async () => {
    const { memories, undo } = await setup();
    const m = memories.insert(coffee, { actor: 'extractor' });
    memories.change(m.id, { status: 'superseded', supersededBy: null }, { action: 'supersede', actor: 'extractor', reason: 'retracted' });
    expect(undo.undo(m.id)).toMatchObject({ kind: 'restored', memory: { status: 'active' }, alsoChanged: [] });
  });

  it('restore brings back a superseded memory, or an earlier version', async () => {
    const { memories, undo } = await setup();
    const old = memories.insert(coffee, { actor: 'extractor' });
    const next = memories.insert({ ...coffee, content: 'I hate coffee' }, { actor: 'extractor' });
    memories.change(old.id, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor: 'extractor' });
    expect(undo.restore(old.id)).toMatchObject({ status: 'active', supersededBy: null });
    expect(memories.mustFind(next.id).status).toBe('superseded');

    memories.change(next.id, { content: 'I really hate coffee' }, { action: 'update', actor: 'user' });
    expect(undo.restore(next.id, 1)).toMatchObject({ content: 'I hate coffee', status: 'active' });
    expect(memories.mustFind(old.id)).toMatchObject({ status: 'superseded', supersededBy: next.id });
    expect(() => undo.restore(next.id, 99)).toThrow(/version/);
  });
});
