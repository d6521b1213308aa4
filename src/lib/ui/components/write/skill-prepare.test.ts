/**
 * Issue 18 on the Write page: what a skill run recalls memories by — its message (the instruction, else the skill's
 * default) with the selected text — is embedded while the selection and the instruction rest, so the run that
 * follows finds the question's vector cached instead of paying the embedding endpoint's round trip.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../../tests/fixtures/fake-openai-server';
import { ok } from '../../../domain/errors';
import type { EngineCaller } from '../../../engine/client/caller';
import { createCaller } from '../../../engine/client/caller';
import type { EmbeddingStatus } from '../../../engine/embeddings/types';
import { embedWithProvider } from '../../../engine/embeddings';
import { embeddingsJob } from '../../../engine/jobs/embeddings-job';
import { contract, PREPARE_SELECTION_MAX_CHARS } from '../../../engine/protocol/contract';
import { createTestEngine, expectOk, type TestEngine } from '../../../engine/testing';
import { PREPARE_PAUSE_MS } from '../../app/question-preparer';
import { testWriteDeps } from './testing';
import { WriteState } from './write-state.svelte';

const CHAPTER = 'The rain had not stopped for days. Mara fed the little pup from the rescue and watched the road.';
const SELECTED = 'Mara fed the little pup from the rescue';
const DEFAULTS: Record<string, string> = {
  continue: 'Continue the text after the selection in the same voice.',
  'consistency-check': 'Check the selection for contradictions with the settings and known facts.',
};
const defaultMessage = (id: string) => DEFAULTS[id] ?? `default of ${id}`;
const on: EmbeddingStatus = { model: 'nomic-embed-text', state: 'ready', total: 1, embedded: 1, reason: null };

/** A Write page on a real engine whose `embeddings.prepare` calls are recorded (and, unless `forward`, answered here). */
async function setup(opts: { embeddings: () => EmbeddingStatus | null; forward?: boolean; t?: TestEngine }) {
  const t = opts.t ?? (await createTestEngine());
  const prepared: unknown[] = [];
  const engine: EngineCaller = {
    call: ((method: string, input: unknown, o?: unknown) => {
      if (method !== 'embeddings.prepare') return t.engine.call(method as never, input as never, o as never);
      prepared.push(input);
      return opts.forward ? t.engine.call('embeddings.prepare', input as never) : Promise.resolve(ok({ state: 'embedded' }));
    }) as EngineCaller['call'],
  };
  const { deps } = testWriteDeps({ engine, now: () => t.clock.now() });
  const w = new WriteState({ ...deps, embeddings: opts.embeddings });
  await w.start();
  expect(await w.createProject('Novel')).toBe(true);
  expect(await w.createDocument('Chapter 1')).toBe(true);
  w.editor.input(CHAPTER);
  await w.editor.flush();
  const start = CHAPTER.indexOf(SELECTED);
  return { t, w, prepared, sel: { start, end: start + SELECTED.length } };
}

describe('the Write page embeds what a skill run will recall by, while the selection rests (issue 18)', () => {
  afterEach(() => vi.useRealTimers());

  it('a selection change then a pause asks once per text a recalling skill would send; the same selection is not asked again', async () => {
    const { w, prepared, sel } = await setup({ embeddings: () => on });
    vi.useFakeTimers();
    w.runner.prepare({ start: sel.start, end: sel.start + 4, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS / 2);
    w.runner.prepare({ ...sel, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS - 1);
    expect(prepared).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // continue and consistency-check recall memories (polish and summarize do not): each with its default message.
    expect(prepared).toEqual([
      { text: DEFAULTS.continue, as: 'message', selectionText: SELECTED },
      { text: DEFAULTS['consistency-check'], as: 'message', selectionText: SELECTED },
    ]);
    w.runner.prepare({ ...sel, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS * 2);
    expect(prepared).toHaveLength(2);
  });

  it('with an instruction typed both recalling skills send the same text: asked once', async () => {
    const { w, prepared, sel } = await setup({ embeddings: () => on });
    vi.useFakeTimers();
    w.runner.instruction = '  keep it tense ';
    w.runner.prepare({ ...sel, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS);
    expect(prepared).toEqual([{ text: 'keep it tense', as: 'message', selectionText: SELECTED }]);
  });

  it('with no selection only continue (which needs none) is prepared, with no selection text', async () => {
    const { w, prepared, sel } = await setup({ embeddings: () => on });
    vi.useFakeTimers();
    w.runner.prepare({ start: sel.end, end: sel.end, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS);
    expect(prepared).toEqual([{ text: DEFAULTS.continue, as: 'message' }]);
  });

  it("a selection longer than embeddings.prepare takes is cut to the contract's one limit, which the engine accepts", async () => {
    const { w, prepared } = await setup({ embeddings: () => on });
    const long = `${'z'.repeat(PREPARE_SELECTION_MAX_CHARS)}TAIL`;
    w.editor.input(long);
    await w.editor.flush();
    vi.useFakeTimers();
    w.runner.prepare({ start: 0, end: long.length, defaultMessage });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS);
    expect(prepared).toHaveLength(2);
    for (const input of prepared as { selectionText: string }[]) {
      expect(input.selectionText).toBe(long.slice(0, PREPARE_SELECTION_MAX_CHARS));
      expect(contract['embeddings.prepare'].input.safeParse(input).success).toBe(true);
      expect(contract['embeddings.prepare'].input.safeParse({ ...input, selectionText: `${input.selectionText}z` }).success).toBe(false);
    }
  });

  it('asks nothing without an embedding model, nor when a run starts before the pause', async () => {
    const off = await setup({ embeddings: () => ({ model: null, state: 'off', total: 0, embedded: 0, reason: null }) });
    const unknown = await setup({ embeddings: () => null });
    const running = await setup({ embeddings: () => on });
    vi.useFakeTimers();
    off.w.runner.prepare({ ...off.sel, defaultMessage });
    unknown.w.runner.prepare({ ...unknown.sel, defaultMessage });
    running.w.runner.prepare({ ...running.sel, defaultMessage });
    const run = running.w.runner.run({ skillId: 'consistency-check', ...running.sel, defaultMessage: defaultMessage('consistency-check') });
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS * 2);
    vi.useRealTimers();
    await run;
    expect(running.w.runner.noModelRunId).not.toBeNull();
    expect([off.prepared, unknown.prepared, running.prepared]).toEqual([[], [], []]);
  });
});

describe('against the engine and an embedding endpoint on this device', () => {
  let server: FakeOpenAi | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('the text prepared is the one the run recalls by: the run sends nothing more to the endpoint', async () => {
    server = await startFakeOpenAi({ models: ['nomic-embed-text'], synonyms: [['dog', 'puppy', 'pup']], embeddingDims: 96 });
    const t = await createTestEngine();
    expectOk(await t.engine.call('memory.create', { content: 'Mara is afraid of dogs since childhood.' }));
    const endpoint = { baseUrl: server.url, apiKey: '', model: 'nomic-embed-text', timeoutMs: 5000 };
    const status = expectOk(await t.engine.call('embeddings.configure', { endpoint }));
    // The jobs worker's fill: the memory gets its vector, so the run's memory lane embeds its question.
    await embeddingsJob({ endpoint: () => endpoint, embed: embedWithProvider }).run({
      engine: createCaller({ call: (req) => t.engine.handle(req) }),
      trigger: 'demand',
      progress: () => undefined,
      signal: new AbortController().signal,
    });
    expect(expectOk(await t.engine.call('embeddings.status', {}))).toMatchObject({ state: 'ready', embedded: 1 });
    const { w, prepared, sel } = await setup({ embeddings: () => status, forward: true, t });
    const embedded = () => server!.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => (r.body as { input?: string[] }).input ?? []);
    const before = embedded().length;

    w.runner.prepare({ ...sel, defaultMessage });
    await vi.waitFor(() => expect(embedded().length).toBe(before + 2), { timeout: 5000 });
    expect(prepared).toHaveLength(2);
    const asked = embedded().slice(before);
    expect(asked.every((q) => q.endsWith(`\n${SELECTED}`))).toBe(true);

    await w.runner.run({ skillId: 'consistency-check', ...sel, defaultMessage: defaultMessage('consistency-check') });
    expect(w.runner.noModelRunId).not.toBeNull();
    const run = expectOk(await t.engine.call('run.get', { runId: w.runner.noModelRunId! }));
    // The memory the lane found by meaning is in the run; the endpoint was not asked again.
    expect(JSON.stringify(run)).toContain('afraid of dogs');
    expect(embedded().length).toBe(before + 2);
  });
});
