/**
 * Test support for the Write page's state (and the inspector's tests that need runs): a scripted model
 * provider and the ports wired to a real test engine. Not used by the app.
 */
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from '../../../domain/llm/settings';
import { createHeuristicProvider } from '../../../domain/llm/heuristic';
import { EngineError } from '../../../domain/errors';
import type { ModelProvider, StreamEvent } from '../../../domain/llm/types';
import type { EngineCaller } from '../../../engine/client/caller';
import { memoryDrafts, type WriteDeps } from './write-deps';

/** A model that answers with `reply(prompt)` in small pieces; `fail` makes it throw instead. */
export function scriptedProvider(opts: {
  reply: (messages: { role: string; content: string }[]) => string;
  fail?: EngineError;
  /** Pieces are yielded with a pause, so a Stop can land mid-stream. */
  pauseMs?: number;
}): ModelProvider {
  const base = createHeuristicProvider();
  return {
    ...base,
    kind: 'openai-compatible',
    canGenerate: true,
    chatStream(req): AsyncIterable<StreamEvent> {
      return {
        async *[Symbol.asyncIterator]() {
          if (opts.fail) throw opts.fail;
          const text = opts.reply(req.messages);
          for (const piece of text.match(/[\s\S]{1,4}/gu) ?? []) {
            if (req.signal?.aborted) throw new EngineError('CANCELED', 'The model request was stopped before it finished.');
            if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
            yield { type: 'delta', text: piece };
          }
          yield { type: 'done', finishReason: 'stop' };
        },
      };
    },
  };
}

export function testWriteDeps(opts: { engine: EngineCaller; now: () => number; provider?: ModelProvider; settings?: Partial<ModelSettings> }) {
  const drafts = memoryDrafts(opts.now);
  const settings: ModelSettings = { ...DEFAULT_MODEL_SETTINGS, ...opts.settings };
  const deps: WriteDeps = {
    engine: opts.engine,
    drafts,
    settings: async () => settings,
    provider: () => opts.provider ?? createHeuristicProvider(),
    locale: () => 'en',
    now: opts.now,
    saveDelayMs: 5,
  };
  return { deps, drafts };
}
