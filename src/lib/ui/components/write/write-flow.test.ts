import { describe, expect, it, vi } from 'vitest';
import { budgetsForWindow, LAYER_IDS, replyReserve } from '../../../domain/context';
import { EngineError } from '../../../domain/errors';
import { createCaller } from '../../../engine/client/caller';
import { memoryProjectFileStore, type ProjectFileStore } from '../../../engine/files/project-file-store';
import { createTestEngine, expectOk } from '../../../engine/testing';
import { InspectState } from '../inspect/inspect-state.svelte';
import { scriptedProvider, testWriteDeps } from './testing';
import { draftId } from './write-deps';
import { WriteState } from './write-state.svelte';

const CHAPTER = '他走进院子。院子里很安静，只有风吹过树叶的声音，沙沙作响，像有人在低声说话。他停下脚步。';
const SELECTED = '院子里很安静，只有风吹过树叶的声音，沙沙作响，像有人在低声说话。';

async function setup(provider?: Parameters<typeof testWriteDeps>[0]['provider']) {
  const t = await createTestEngine();
  const { deps, drafts } = testWriteDeps({ engine: t.engine, now: () => t.clock.now(), ...(provider ? { provider } : {}) });
  const w = new WriteState(deps);
  await w.start();
  return { ...t, w, drafts };
}

async function withChapter(provider?: Parameters<typeof setup>[0]) {
  const s = await setup(provider);
  expect(await s.w.createProject('Novel')).toBe(true);
  expect(await s.w.createDocument('Chapter 1')).toBe(true);
  s.w.editor.input(CHAPTER);
  await s.w.editor.flush();
  const start = CHAPTER.indexOf(SELECTED);
  return { ...s, start, end: start + SELECTED.length };
}

describe('Write page against a real engine', () => {
  it('creates a project and a chapter, runs a skill without a model, and the run can be inspected', async () => {
    const { w, engine, start, end } = await withChapter();
    expect(w.projects.project?.name).toBe('Novel');
    expect(w.projects.documents.map((d) => d.title)).toEqual(['Chapter 1']);
    expect(w.editor.saveState).toBe('saved');
    expect(expectOk(await engine.call('document.get', { id: w.editor.documentId! })).content).toBe(CHAPTER);

    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish the selection.' });
    const runId = w.runner.noModelRunId;
    expect(runId).not.toBeNull();
    expect(w.runner.phase).toBe('idle');
    expect(w.runner.error).toBeNull();
    expect(w.editor.content).toBe(CHAPTER); // nothing was written into the text

    const listed = expectOk(await engine.call('run.list', { limit: 10 }));
    expect(listed.map((r) => [r.id, r.skillId, r.status, r.documentId])).toContainEqual([runId, 'polish', 'completed', w.editor.documentId]);
    const inspector = new InspectState({ engine });
    await inspector.open(runId!);
    const record = inspector.record!;
    expect(record.layers.map((l) => l.id)).toEqual(LAYER_IDS);
    expect(record.stablePrefixHash).toMatch(/^[0-9a-f]{64}$/);
    expect(inspector.prefixVerified).toBe(true);
    expect(record.layers.find((l) => l.id === 'L5')?.text).toContain(SELECTED);
    // polish asks for surrounding text and the style guide only: no character cards, no memories.
    expect(record.layers.find((l) => l.id === 'L4')?.reason).toBe('not-requested');
  });

  it('streams a model result, shows it against the selection, and records an edited accept as partial', async () => {
    const short = '院子里静悄悄的，只有风声。';
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => short }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish the selection.' });
    expect(w.runner.phase).toBe('review');
    expect(w.runner.result?.output).toBe(short);
    expect(w.runner.result?.sel.text).toBe(SELECTED);
    w.runner.edited = '院子里静悄悄的，只有风。';
    await w.runner.accept();
    // The text changes at once; the episode is recorded behind it.
    expect(w.editor.content).toBe(CHAPTER.replace(SELECTED, '院子里静悄悄的，只有风。'));
    expect(w.runner.lastSignal).toBe('weak-positive');
    await w.runner.settled();
    const [event] = expectOk(await engine.call('feedback.list', { limit: 5 }));
    expect(event).toMatchObject({ action: 'partial', skillId: 'polish', editDistance: 0.077 });
    expect(event?.sampleRefs).toEqual([{ documentId: w.editor.documentId, from: start, to: start + '院子里静悄悄的，只有风。'.length }]);
    const run = expectOk(await engine.call('run.get', { runId: event!.runId }));
    expect(run.status).toBe('completed');
    expect(w.runner.learningPaused).toBe(false);
    const [episode] = expectOk(await engine.call('episode.list', { limit: 5 })).items;
    expect(episode).toMatchObject({ runId: event!.runId, skillUsed: 'polish', candidates: [short], selectedIndex: 0, finalText: '院子里静悄悄的，只有风。', implicit: 'weak-positive', editDistance: 0.077 });
  });

  it('003 candidates: "another version" adds a candidate of the same run; the chosen one and a comment are recorded', async () => {
    const replies = ['院子里很静。', '院子里静得只剩风声，树叶沙沙作响。'];
    let n = 0;
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => replies[n++ % 2] as string }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish.' });
    expect(w.runner.canAddCandidate).toBe(true);
    await w.runner.another();
    expect(w.runner.phase).toBe('review');
    expect(w.runner.result?.candidates).toEqual(replies);
    expect(w.runner.current).toBe(1);
    w.runner.show(0);
    expect(w.runner.edited).toBe(replies[0]);
    w.runner.comment = '短一点更好';
    await w.runner.accept();
    await w.runner.settled();
    const [episode] = expectOk(await engine.call('episode.list', { limit: 5 })).items;
    expect(episode).toMatchObject({ candidates: replies, selectedIndex: 0, explicit: '短一点更好', implicit: 'strong-positive' });
    expect(expectOk(await engine.call('run.list', { limit: 10 }))).toHaveLength(1);
  });

  it('with learning switched off, the feedback is recorded and the page says nothing was learned', async () => {
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => '院子里很静。' }));
    expectOk(await engine.call('settings.update', { patch: { 'preferences.learning': false } }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish.' });
    await w.runner.accept();
    await w.runner.settled();
    expect(w.runner.learningPaused).toBe(true);
    expect(expectOk(await engine.call('feedback.list', { limit: 5 }))).toHaveLength(1);
    expect(expectOk(await engine.call('episode.list', {})).total).toBe(1);
  });

  it('undo within the window restores the original and records a delayed reject on the same run', async () => {
    const { w, engine, clock, start, end } = await withChapter(scriptedProvider({ reply: () => '很安静。' }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish the selection.' });
    await w.runner.accept();
    expect(w.editor.content).not.toBe(CHAPTER);
    clock.advance(30_000);
    expect(w.runner.canUndo()).toBe(true);
    await w.runner.undo();
    expect(w.editor.content).toBe(CHAPTER);
    expect(w.runner.lastSignal).toBe('delayed-negative');
    await w.runner.settled();
    const events = expectOk(await engine.call('feedback.list', { limit: 5 }));
    expect(events.map((e) => [e.action, e.signal])).toEqual([
      ['reject', 'delayed-negative'],
      ['accept', 'strong-positive'],
    ]);
    expect(new Set(events.map((e) => e.runId)).size).toBe(1);
    // One episode for the run: the acceptance stays on record, the episode ends negative.
    const { items, total } = expectOk(await engine.call('episode.list', {}));
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({ selectedIndex: 0, finalText: '很安静。', firstSignal: 'strong-positive', implicit: 'delayed-negative', valence: -1 });
  });

  it('offers no undo once the window has passed', async () => {
    const { w, clock, start, end } = await withChapter(scriptedProvider({ reply: () => '很安静。' }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish the selection.' });
    await w.runner.accept();
    await w.runner.settled();
    clock.advance(30_001);
    expect(w.runner.canUndo()).toBe(false);
    await w.runner.undo();
    await w.runner.settled();
    expect(w.editor.content).toBe(CHAPTER.replace(SELECTED, '很安静。'));
  });

  it('continue inserts after the selection; reject leaves the text alone and records a reject', async () => {
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => '风停了。' }));
    await w.runner.run({ skillId: 'continue', start, end, defaultMessage: 'Continue.' });
    await w.runner.accept();
    expect(w.editor.content).toBe(CHAPTER.replace(SELECTED, `${SELECTED}风停了。`));
    await w.runner.run({ skillId: 'continue', start: end, end, defaultMessage: 'Continue.' });
    await w.runner.reject();
    await w.runner.settled();
    expect(w.editor.content).toBe(CHAPTER.replace(SELECTED, `${SELECTED}风停了。`));
    const events = expectOk(await engine.call('feedback.list', { limit: 5 }));
    expect(events.map((e) => e.action)).toEqual(['reject', 'accept']);
  });

  it('the run is cut to the model’s context window (a 4k model: every layer within its share, room left for the reply)', async () => {
    const t = await createTestEngine();
    const { deps } = testWriteDeps({ engine: t.engine, now: () => t.clock.now(), settings: { contextWindow: 4096 } });
    const w = new WriteState(deps);
    await w.start();
    await w.createProject('Novel');
    await w.createDocument('Chapter 1');
    const long = `${CHAPTER}\n\n`.repeat(60);
    w.editor.input(long);
    await w.editor.flush();
    await w.runner.run({ skillId: 'continue', start: long.length - CHAPTER.length - 2, end: long.length - 2, defaultMessage: 'Continue.' });
    const run = expectOk(await t.engine.call('run.get', { runId: w.runner.noModelRunId! }));
    const budgets = budgetsForWindow(4096);
    expect(Object.fromEntries(run.layers.map((l) => [l.id, l.budget]))).toEqual(budgets);
    expect(run.totalTokens + replyReserve(4096)).toBeLessThanOrEqual(4096);
  });

  it('a run and another version go through the generation module: one context.build and one turn.finish, no run.complete (issue 16)', async () => {
    const t = await createTestEngine();
    const calls: string[] = [];
    const engine = createCaller({ call: (req) => (calls.push(req.method), t.engine.handle(req)) });
    let n = 0;
    const { deps } = testWriteDeps({ engine, now: () => t.clock.now(), provider: scriptedProvider({ reply: () => `院子里很静。${++n}` }) });
    const w = new WriteState(deps);
    await w.start();
    await w.createProject('Novel');
    await w.createDocument('Chapter 1');
    w.editor.input(CHAPTER);
    await w.editor.flush();
    const start = CHAPTER.indexOf(SELECTED);
    calls.length = 0;
    await w.runner.run({ skillId: 'polish', start, end: start + SELECTED.length, defaultMessage: 'Polish.' });
    await w.runner.another();
    expect(w.runner.phase).toBe('review');
    expect(w.runner.result?.candidates).toEqual(['院子里很静。1', '院子里很静。2']);
    expect(calls.filter((c) => /^(context|turn|run)\./.test(c))).toEqual(['context.build', 'turn.finish']);
    expect(expectOk(await t.engine.call('run.get', { runId: w.runner.lastRunId! })).status).toBe('completed');
  });

  it('Stop cancels the run silently', async () => {
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => '很长的一段回答'.repeat(20), pauseMs: 5 }));
    const running = w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish.' });
    await vi.waitFor(() => expect(w.runner.streamed.length).toBeGreaterThan(0));
    w.runner.stop();
    await running;
    expect(w.runner.phase).toBe('idle');
    expect(w.runner.error).toBeNull();
    expect(w.runner.result).toBeNull();
    expect(expectOk(await engine.call('run.get', { runId: w.runner.lastRunId! })).status).toBe('canceled');
  });

  it('Stop while the context is still being built cancels the build: no run is stored, nothing is shown (004)', async () => {
    // The style guide never finishes loading, so the build waits on L3 (its deadline is far away).
    const base = memoryProjectFileStore();
    const files: ProjectFileStore = { ...base, read: (projectId, path) => (path.startsWith('.engram/style/') ? new Promise<string | null>(() => {}) : base.read(projectId, path)) };
    const t = await createTestEngine({ files, context: { sourceTimeoutMs: 60_000 } });
    const { deps } = testWriteDeps({ engine: t.engine, now: () => t.clock.now(), provider: scriptedProvider({ reply: () => '不该出现' }) });
    const w = new WriteState(deps);
    await w.start();
    await w.createProject('Novel');
    await w.createDocument('Chapter 1');
    expectOk(await t.engine.call('projectFile.write', { projectId: w.projects.project!.id, path: '.engram/style/guide.md', content: '少用形容词。' }));
    w.editor.input(CHAPTER);
    await w.editor.flush();
    const start = CHAPTER.indexOf(SELECTED);
    const running = w.runner.run({ skillId: 'polish', start, end: start + SELECTED.length, defaultMessage: 'Polish.' });
    await vi.waitFor(() => expect(w.runner.phase).toBe('building'));
    await new Promise((r) => setTimeout(r, 20));
    w.runner.stop();
    await running;
    expect(w.runner).toMatchObject({ phase: 'idle', error: null, result: null, streamed: '' });
    expect(expectOk(await t.engine.call('run.list', { limit: 10 }))).toEqual([]);
  });

  it.each([
    { code: 'MODEL_UNAVAILABLE' as const, status: 'failed' },
    { code: 'TIMEOUT' as const, status: 'timeout' },
  ])('a model failure ($code) ends the run as $status and is shown', async ({ code, status }) => {
    const { w, engine, start, end } = await withChapter(scriptedProvider({ reply: () => '', fail: new EngineError(code, 'No model server answered at http://127.0.0.1:9.') }));
    await w.runner.run({ skillId: 'polish', start, end, defaultMessage: 'Polish.' });
    expect(w.runner.error?.code).toBe(code);
    expect(expectOk(await engine.call('run.get', { runId: w.runner.lastRunId! })).status).toBe(status);
  });

  it('a skill that needs a selection does nothing on a bare cursor', async () => {
    const { w, engine } = await withChapter();
    await w.runner.run({ skillId: 'summarize', start: 3, end: 3, defaultMessage: 'Summarise.' });
    expect(expectOk(await engine.call('run.list', { limit: 5 }))).toEqual([]);
  });
});

describe('the editor keeps every keystroke', () => {
  it('saves after a pause in typing and clears the draft', async () => {
    const { w, drafts, engine } = await withChapter();
    w.editor.input(`${CHAPTER}新的一句。`);
    expect(w.editor.saveState).toBe('unsaved');
    expect(drafts.rows.get(draftId(w.editor.documentId!))?.text).toBe(`${CHAPTER}新的一句。`);
    await vi.waitFor(() => expect(w.editor.saveState).toBe('saved'));
    expect(expectOk(await engine.call('document.get', { id: w.editor.documentId! })).content).toBe(`${CHAPTER}新的一句。`);
    await vi.waitFor(() => expect(drafts.rows.has(draftId(w.editor.documentId!))).toBe(false));
  });

  it('restores a draft newer than the saved chapter, and says so', async () => {
    const { w, drafts, clock } = await withChapter();
    const id = w.editor.documentId!;
    clock.advance(1000);
    await drafts.put(draftId(id), `${CHAPTER}（未保存）`);
    await w.editor.open(null);
    await w.openDocument(id);
    expect(w.editor.content).toBe(`${CHAPTER}（未保存）`);
    expect(w.editor.restoredDraft).toBe(true);
    expect(w.editor.saveState).toBe('unsaved');
    await w.editor.flush();
    expect(w.editor.saveState).toBe('saved');
  });

  it('ignores a draft older than the saved chapter', async () => {
    const { w, drafts, clock, engine } = await withChapter();
    const id = w.editor.documentId!;
    await drafts.put(draftId(id), 'old draft');
    clock.advance(1000);
    expectOk(await engine.call('document.update', { id, content: 'saved later' }));
    await w.editor.open(null);
    await w.openDocument(id);
    expect(w.editor.content).toBe('saved later');
    expect(w.editor.restoredDraft).toBe(false);
  });
});
