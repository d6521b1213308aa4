import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../domain/errors';
import type { EngineCaller } from '../../engine/client/caller';
import type { EmbeddingStatus } from '../../engine/embeddings/types';
import { createQuestionPreparer, PREPARE_PAUSE_MS } from './question-preparer';

const on: EmbeddingStatus = { model: 'nomic-embed-text', state: 'ready', total: 1, embedded: 1, reason: null };
const off: EmbeddingStatus = { model: null, state: 'off', total: 0, embedded: 0, reason: null };

describe('the question is embedded while it is typed (issue 18)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(initial: EmbeddingStatus | null, as: 'ask' | 'message' = 'message') {
    const calls: { method: string; input: unknown }[] = [];
    let status = initial;
    const engine = { call: async (method: string, input: unknown) => (calls.push({ method, input }), ok({ state: 'embedded' })) } as unknown as EngineCaller;
    const preparer = createQuestionPreparer({ engine: () => engine, embeddings: () => status, as });
    return { calls, preparer, set: (next: EmbeddingStatus | null) => (status = next) };
  }

  it('typed before the engine knew the embedding model, asked once typing pauses and it does', async () => {
    const { calls, preparer, set } = setup(null, 'ask');
    preparer.typed('my dog');
    set(on);
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS);
    expect(calls).toEqual([{ method: 'embeddings.prepare', input: { text: 'my dog', as: 'ask' } }]);
  });

  it('asks once typing pauses, with the text as it will be sent, and not again for the same text', async () => {
    const { calls, preparer } = setup(on);
    preparer.typed('When did I');
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS / 2);
    preparer.typed('When did I adopt my dog?');
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([{ method: 'embeddings.prepare', input: { text: 'When did I adopt my dog?', as: 'message' } }]);
    preparer.typed('When did I adopt my dog?');
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS * 2);
    expect(calls).toHaveLength(1);
  });

  it('asks nothing without an embedding model, for blank text, or once the message is sent (cancel)', async () => {
    const none = setup(off);
    none.preparer.typed('my dog');
    const unknown = setup(null);
    unknown.preparer.typed('my dog');
    const blank = setup(on);
    blank.preparer.typed('   ');
    const sent = setup(on);
    sent.preparer.typed('my dog');
    sent.preparer.cancel();
    await vi.advanceTimersByTimeAsync(PREPARE_PAUSE_MS * 2);
    expect([none.calls, unknown.calls, blank.calls, sent.calls]).toEqual([[], [], [], []]);
  });
});
