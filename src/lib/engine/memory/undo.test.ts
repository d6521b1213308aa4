import { describe, expect, it } from 'vitest';
import { createTestEngine } from '../testing';
import { createMemoryRepo, type NewMemory } from '../store/memory-repo';
import { createProfileRepo } from '../store/profile-repo';
import { createProfileSync } from './profile-sync';
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
  const profile = createProfileRepo(t.engine.env);
  return { t, memories, profile, undo: createMemoryUndo({ memories, profileSync: createProfileSync({ profile }) }) };
}

describe('memory undo (the chat’s "remembered … [undo]")', () => {
  it('undo of a create deletes the memory', async () => {
    const { memories, undo } = await setup();
    const m = memories.insert(coffee, { actor: 'extractor' });
    expect(undo.undo(m.id)).toMatchObject({ kind: 'deleted', memoryId: m.id, restored: [], profileChanged: false });
    expect(memories.find(m.id)).toBeUndefined();
  });

  it('undo of a superseding create brings back what it replaced', async () => {
    const { memories, undo } = await setup();
    const old = memories.insert(coffee, { actor: 'extractor' });
    const next = memories.insert({ ...coffee, value: { stance: 'dislike' }, content: 'I hate coffee' }, { actor: 'extractor' });
    memories.change(old.id, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor: 'extractor' });
    expect(undo.undo(next.id)).toMatchObject({ kind: 'deleted', memoryId: next.id, restored: [old.id] });
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

  describe('the profile follows (issue 4 item 4)', () => {
    const xiaoming: NewMemory = { ...coffee, category: 'fact', key: 'fact.name', value: { name: '小明' }, content: '叫我小明', language: 'zh' };
    const withLine = (profile: ReturnType<typeof createProfileRepo>, line: string) =>
      profile.write(`## 回复风格\n\n## 语言习惯\n\n## 背景\n- ${line}\n\n## 备注\n`, { actor: 'extractor', reason: 'extract' });

    it('undoing a learned name removes the line it wrote, as a new undoable profile version', async () => {
      const { memories, profile, undo } = await setup();
      const m = memories.insert(xiaoming, { actor: 'extractor' });
      withLine(profile, '称呼：小明');
      const res = undo.undo(m.id);
      expect(res).toMatchObject({ kind: 'deleted', profileChanged: true, profileVersion: 2, profileChanges: [{ action: 'removed', previous: '称呼：小明' }] });
      expect(profile.get()).toMatchObject({ version: 2, actor: 'user' });
      expect(profile.get().content).not.toContain('小明');
      expect(profile.history({ limit: 5, offset: 0 }).items[0]?.reason).toBe('memory-undo');
      profile.undo();
      expect(profile.get().content).toContain('称呼：小明');
    });

    it('undoing a name that replaced another puts the old name back', async () => {
      const { memories, profile, undo } = await setup();
      const old = memories.insert({ ...xiaoming, value: { name: '小红' }, content: '叫我小红' }, { actor: 'extractor' });
      const next = memories.insert(xiaoming, { actor: 'extractor' });
      memories.change(old.id, { status: 'superseded', supersededBy: next.id }, { action: 'supersede', actor: 'extractor' });
      withLine(profile, '称呼：小明');
      expect(undo.undo(next.id)).toMatchObject({ profileChanges: [{ action: 'replaced', previous: '称呼：小明', text: '称呼：小红' }] });
      expect(profile.get().content).toContain('- 称呼：小红');
    });

    it('a line the user rewrote is theirs and stays', async () => {
      const { memories, profile, undo } = await setup();
      const m = memories.insert(xiaoming, { actor: 'extractor' });
      withLine(profile, '称呼：明明（朋友都这么叫）');
      expect(undo.undo(m.id)).toMatchObject({ profileChanged: false, profileVersion: 1 });
      expect(profile.get().content).toContain('明明');
    });

    it('undoing a withdrawal brings its line back when the slot is empty', async () => {
      const { memories, profile, undo } = await setup();
      const m = memories.insert(xiaoming, { actor: 'extractor' });
      memories.change(m.id, { status: 'superseded', supersededBy: null }, { action: 'supersede', actor: 'extractor', reason: 'retracted' });
      expect(undo.undo(m.id)).toMatchObject({ kind: 'restored', profileChanged: true, profileChanges: [{ action: 'added', text: '称呼：小明' }] });
    });
  });
});
