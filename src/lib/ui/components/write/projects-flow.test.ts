import { describe, expect, it } from 'vitest';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { testWriteDeps } from './testing';
import { WriteState } from './write-state.svelte';

async function setup() {
  const t = await createTestEngine();
  const { deps } = testWriteDeps({ engine: t.engine, now: () => t.clock.now() });
  const w = new WriteState(deps);
  await w.start();
  return { ...t, w };
}

describe('projects and chapters', () => {
  it('renames and deletes chapters and projects, and the lists follow', async () => {
    const { w, engine } = await setup();
    await w.createProject('First');
    await w.createDocument('One');
    await w.createDocument('Two');
    expect(w.projects.documents.map((d) => d.title).sort()).toEqual(['One', 'Two']);
    const two = w.projects.documents.find((d) => d.title === 'Two')!;
    await w.openDocument(two.id);
    await w.renameDocument(two.id, 'Deux');
    expect(w.editor.title).toBe('Deux');
    await w.deleteDocument(two.id);
    expect(w.projects.documents.map((d) => d.title)).toEqual(['One']);
    expect(w.editor.title).toBe('One'); // the remaining chapter opens

    await w.createProject('Second');
    expect(w.projects.project?.name).toBe('Second');
    expect(w.projects.documents).toEqual([]);
    expect(w.editor.documentId).toBeNull();
    expect(await w.projects.renameProject('Zweite')).toBe(true);
    expect(w.projects.projects.map((p) => p.name).sort()).toEqual(['First', 'Zweite']);
    expect(await w.deleteProject()).toBe(true);
    expect(expectOk(await engine.call('project.list', {})).map((p) => p.name)).toEqual(['First']);
    expect(w.projects.project?.name).toBe('First');
    expect(w.editor.title).toBe('One');
  });

  it('saves the open chapter before switching project', async () => {
    const { w, engine } = await setup();
    await w.createProject('A');
    await w.createDocument('A1');
    const a1 = w.editor.documentId!;
    w.editor.input('typed just before switching');
    await w.createProject('B');
    expect(expectOk(await engine.call('document.get', { id: a1 })).content).toBe('typed just before switching');
  });

  it('shows the engine error when a name is refused', async () => {
    const { w } = await setup();
    expect(await w.createProject('   ')).toBe(false);
    expect(w.projects.error?.code).toBe('INVALID_ARGUMENT');
  });
});

describe('project setting files', () => {
  it('creates, lists, edits and deletes a character card, and continue loads it as a cited L3 source', async () => {
    const { w, engine } = await setup();
    await w.createProject('Novel');
    await w.createDocument('One');
    expect(w.files.startNew('characters', 'Alice')).toBeNull();
    w.files.edit('Alice, 17, never lies.');
    expect(await w.files.save()).toBe(true);
    expect(w.files.entries.map((e) => e.path)).toEqual(['.engram/characters/Alice.md']);
    expect(w.files.dirty).toBe(false);
    expect(w.files.startNew('characters', 'Alice')).toBe('exists');
    expect(w.files.startNew('world', '../escape')).toBe('invalid');

    w.editor.input('Alice opened the door.');
    await w.runner.run({ skillId: 'continue', start: 22, end: 22, defaultMessage: 'Continue.' });
    const run = expectOk(await engine.call('run.get', { runId: w.runner.noModelRunId! }));
    expect(run.layers.find((l) => l.id === 'L3')?.sources).toEqual(['.engram/characters/Alice.md']);

    await w.files.openFile('.engram/characters/Alice.md');
    expect(w.files.open?.content).toBe('Alice, 17, never lies.');
    expect(await w.files.remove('.engram/characters/Alice.md')).toBe(true);
    expect(w.files.entries).toEqual([]);
    expect(w.files.open).toBeNull();
  });

  it('reports an engine refusal of a path', async () => {
    const { w } = await setup();
    await w.createProject('Novel');
    await w.files.openFile('/etc/passwd');
    expect(w.files.error?.code).toBe('INVALID_ARGUMENT');
    expect(w.files.error?.message).not.toContain('passwd');
  });
});
