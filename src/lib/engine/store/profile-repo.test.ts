import { describe, expect, it } from 'vitest';
import { createTestEngine } from '../testing';
import { createProfileRepo } from './profile-repo';

async function setup() {
  const t = await createTestEngine();
  return { t, profile: createProfileRepo(t.engine.env) };
}

describe('profile repo (000 用户画像: versions, conflict, undo)', () => {
  it('an editor with a stale version gets CONFLICT and nothing is written', async () => {
    const { profile } = await setup();
    profile.write('A', { actor: 'user', reason: 'edit', expectedVersion: 0 });
    profile.write('B', { actor: 'extractor', reason: 'extract' });
    expect(() => profile.write('C', { actor: 'user', reason: 'edit', expectedVersion: 1 })).toThrow(
      expect.objectContaining({ code: 'CONFLICT', details: expect.objectContaining({ currentVersion: 2 }) }),
    );
    expect(profile.get()).toMatchObject({ content: 'B', version: 2, actor: 'extractor' });
  });

  it('writing the same text adds no version', async () => {
    const { profile } = await setup();
    profile.write('A', { actor: 'user', reason: 'edit' });
    expect(profile.write('A', { actor: 'user', reason: 'edit' }).version).toBe(1);
  });

  it.each([
    { edits: ['A', 'B', 'C'], undos: 1, content: 'B', undone: [3] },
    { edits: ['A', 'B', 'C'], undos: 2, content: 'A', undone: [3, 2] },
    { edits: ['A', 'B', 'C'], undos: 3, content: '', undone: [3, 2, 1] },
    { edits: ['A', 'B', 'C'], undos: 4, content: '', undone: [3, 2, 1, null] },
    { edits: [], undos: 1, content: '', undone: [null] },
  ])('undo walks back through the edits: $edits, $undos undo(s) → "$content"', async ({ edits, undos, content, undone }) => {
    const { profile } = await setup();
    for (const text of edits) profile.write(text, { actor: 'user', reason: 'edit' });
    const seen = Array.from({ length: undos }, () => profile.undo().undone);
    expect(seen).toEqual(undone);
    expect(profile.get().content).toBe(content);
  });

  it('an edit after an undo is undone back to the state before it, skipping what was undone', async () => {
    const { profile } = await setup();
    for (const text of ['A', 'B']) profile.write(text, { actor: 'user', reason: 'edit' });
    profile.undo(); // back to A
    profile.write('C', { actor: 'user', reason: 'edit' });
    expect(profile.undo()).toMatchObject({ undone: 4, profile: { content: 'A' } });
    expect(profile.undo()).toMatchObject({ undone: 1, profile: { content: '' } });
    expect(profile.history({ limit: 10, offset: 0 }).items.map((v) => [v.version, v.reason, v.restores])).toEqual([
      [6, 'undo', 0],
      [5, 'undo', 1],
      [4, 'edit', null],
      [3, 'undo', 1],
      [2, 'edit', null],
      [1, 'edit', null],
    ]);
  });
});
